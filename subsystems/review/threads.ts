/**
 * Review threads and review rounds per project and branch (spec: session row `reviews`; the
 * review commands `upsert_review_thread`, `submit_review`, `save_review_threads`,
 * `remove_review_thread`, `set_review_thread_status`). Persisted as JSON under forge's state
 * directory, one directory per (project, branch), through forge's keeper (`host.state`).
 * Threads and reviews are separate files read separately, so a damaged one is kept aside,
 * reported as `{outcome: "failed"}` with the keeper's words and never as empty, and a write
 * never replaces a store it could not read: the change is refused in those words until the
 * file is mended or removed.
 */
import { z } from "zod";
import { ReviewSet, type ReviewStatus, ReviewThread } from "../../protocol/review.ts";
import {
  type KeptFile,
  schemaParse,
  type StateKeeper,
  StateWriteError,
} from "../../server/subsystem.ts";
import type { Read } from "./wire.ts";
import { KeyedLock } from "../../server/lock.ts";

// The shapes are the wire's (protocol/review.ts); the store's importers read them from here.
export { ReviewAnchor, ReviewSet, ReviewStatus, ReviewThread } from "../../protocol/review.ts";

const ThreadsFile = z.object({ threads: z.array(ReviewThread) });
const ReviewsFile = z.object({ reviews: z.array(ReviewSet) });

/** The `reviews` row: both reads, each on its own (an alias: it crosses as a checked Wire). */
export type ReviewScope = {
  threads: Read<ReviewThread[]>;
  reviews: Read<ReviewSet[]>;
};

/** A directory-safe name: percent-encoding plus `.` encoded, so `..` can never be a segment. */
function segment(name: string): string {
  return encodeURIComponent(name).replaceAll(".", "%2E") || "%00";
}

/** Per (project, branch) thread and review storage under `stateDir`. */
export class ThreadStore {
  #locks = new KeyedLock();
  constructor(
    readonly keeper: StateKeeper,
    readonly stateDir: string,
    readonly now: () => Date = () => new Date(),
  ) {}

  /** The directory one (project, branch) lives in. */
  dirOf(project: string, branch: string): string {
    return `${this.stateDir}/reviews/${segment(project)}/${segment(branch)}`;
  }

  /** The threads, or why they could not be read. A store never written reads as []. */
  readThreads(project: string, branch: string): Promise<Read<ReviewThread[]>> {
    return this.#read(this.#threadsFile(project, branch), { threads: [] })
      .then((r) => r.outcome === "read" ? { outcome: "read", value: r.value.threads } : r);
  }

  /** The submitted reviews, or why they could not be read. */
  readReviews(project: string, branch: string): Promise<Read<ReviewSet[]>> {
    return this.#read(this.#reviewsFile(project, branch), { reviews: [] })
      .then((r) => r.outcome === "read" ? { outcome: "read", value: r.value.reviews } : r);
  }

  /** Both reads, separately (the `reviews` row). */
  async readScope(project: string, branch: string): Promise<ReviewScope> {
    const [threads, reviews] = await Promise.all([
      this.readThreads(project, branch),
      this.readReviews(project, branch),
    ]);
    return { threads, reviews };
  }

  /**
   * Insert or replace one thread by id. False when nothing was written. The thread arrives parsed:
   * the command's schema (protocol/review.ts) refused a malformed one naming its field.
   */
  upsert(project: string, branch: string, thread: ReviewThread): Promise<boolean> {
    return this.#mutate(project, branch, (threads) => {
      const i = threads.findIndex((t) => t.id === thread.id);
      if (i >= 0) threads[i] = thread;
      else threads.push(thread);
      return threads;
    }).catch((error) => {
      // The reply is the spec's bool (write confirmed); the words go to the log.
      this.keeper.log.warn("review_thread_unwritten", { project, branch, error });
      return false;
    });
  }

  /**
   * Overwrite the whole set (already parsed, as upsert's). Rejects with a `StateWriteError` in
   * the keeper's words when the store is damaged or the write failed.
   */
  async save(project: string, branch: string, threads: ReviewThread[]): Promise<void> {
    await this.#locked(project, branch, async () => {
      const file = this.#threadsFile(project, branch);
      await file.writable();
      await file.write({ threads });
    });
  }

  /** Delete one thread. False when it was not there; rejects as `save` does. */
  remove(project: string, branch: string, threadId: string): Promise<boolean> {
    return this.#mutate(project, branch, (threads) => {
      const kept = threads.filter((t) => t.id !== threadId);
      return kept.length === threads.length ? null : kept;
    });
  }

  /** Set one thread's status. False when the thread is not there; rejects as `save` does. */
  setStatus(
    project: string,
    branch: string,
    threadId: string,
    status: ReviewStatus,
  ): Promise<boolean> {
    return this.#mutate(project, branch, (threads) => {
      const t = threads.find((x) => x.id === threadId);
      if (!t) return null;
      t.status = status;
      t.updated_at = this.now().toISOString();
      return threads;
    });
  }

  /**
   * Change one thread under the scope's lock (`change` edits it in place, stamped updated_at):
   * the thread as written, `"missing"` when no thread has that id, or null when the store could
   * not be read or written.
   */
  async changeThread(
    project: string,
    branch: string,
    threadId: string,
    change: (thread: ReviewThread, at: string) => void,
  ): Promise<ReviewThread | "missing" | null> {
    let found: ReviewThread | undefined;
    const written = await this.#mutate(project, branch, (threads) => {
      found = threads.find((t) => t.id === threadId);
      if (!found) return null;
      const at = this.now().toISOString();
      change(found, at);
      found.updated_at = at;
      return threads;
    }).catch((error) => {
      // The answer is null (not read or not written); the keeper's words go to the log.
      this.keeper.log.warn("review_thread_unwritten", { project, branch, error });
      return null;
    });
    if (written === null) return null;
    if (written) return found!;
    return found === undefined && (await this.readThreads(project, branch)).outcome === "read"
      ? "missing"
      : null;
  }

  /** The other branches of a project whose review store holds at least one round. */
  async branchesWithReviews(project: string): Promise<string[]> {
    const out: string[] = [];
    try {
      for await (const e of Deno.readDir(`${this.stateDir}/reviews/${segment(project)}`)) {
        if (!e.isDirectory) continue;
        const branch = decodeURIComponent(e.name === "%00" ? "" : e.name);
        const reviews = await this.readReviews(project, branch);
        if (reviews.outcome === "read" && reviews.value.length > 0) out.push(branch);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return out.sort();
  }

  /**
   * Seal the listed threads' unfiled user turns into a new review round and return it; null when
   * either store could not be read or written (spec: submit_review's reply is a ReviewSet or
   * null). Unknown ids are ignored; a round with a summary and no turns is still a round.
   */
  submitReview(
    project: string,
    branch: string,
    summary: string | null,
    threadIds: string[],
  ): Promise<ReviewSet | null> {
    return this.#locked(project, branch, async () => {
      const [threads, reviews] = await Promise.all([
        this.readThreads(project, branch),
        this.readReviews(project, branch),
      ]);
      if (threads.outcome !== "read" || reviews.outcome !== "read") return null;
      const at = this.now().toISOString();
      const set: ReviewSet = {
        id: `review-${crypto.randomUUID()}`,
        // One past the highest: a store whose rounds are not 1..n (edited by hand, one
        // dropped) never hands out a number twice.
        number: Math.max(0, ...reviews.value.map((r) => r.number)) + 1,
        summary,
        created_at: at,
      };
      const listed = new Set(threadIds);
      for (const t of threads.value) {
        if (!listed.has(t.id)) continue;
        for (const c of t.comments) {
          if (c.author === "user" && c.review_id === null) c.review_id = set.id;
        }
        t.updated_at = at;
      }
      // Reviews first: a round with no members is harmless, members of a missing round are not.
      try {
        await this.#reviewsFile(project, branch).write({ reviews: [...reviews.value, set] });
        await this.#threadsFile(project, branch).write({ threads: threads.value });
      } catch (err) {
        this.keeper.log.warn("review_submit_unwritten", { project, branch, error: err });
        return null;
      }
      return set;
    });
  }

  /**
   * Read-modify-write the threads under the scope's lock; `change` returning null writes nothing
   * (false). A store that could not be read or written rejects with the keeper's words.
   */
  #mutate(
    project: string,
    branch: string,
    change: (threads: ReviewThread[]) => ReviewThread[] | null,
  ): Promise<boolean> {
    return this.#locked(project, branch, async () => {
      const file = this.#threadsFile(project, branch);
      const current = await this.readThreads(project, branch);
      if (current.outcome !== "read") {
        throw new StateWriteError(file.path, "damaged", current.value);
      }
      const next = change(current.value);
      if (next === null) return false;
      await file.write({ threads: next });
      return true;
    });
  }

  #threadsFile(project: string, branch: string): KeptFile<{ threads: ReviewThread[] }> {
    return this.keeper.file(`${this.dirOf(project, branch)}/threads.json`, {
      area: `the review threads of ${project}@${branch}`,
      parse: schemaParse(ThreadsFile, "a review thread list"),
      indent: 1,
    });
  }

  #reviewsFile(project: string, branch: string): KeptFile<{ reviews: ReviewSet[] }> {
    return this.keeper.file(`${this.dirOf(project, branch)}/reviews.json`, {
      area: `the review rounds of ${project}@${branch}`,
      parse: schemaParse(ReviewsFile, "a review round list"),
      indent: 1,
    });
  }

  /** Run `fn` after every earlier write to the same scope (in-process serialisation). */
  #locked<T>(project: string, branch: string, fn: () => Promise<T>): Promise<T> {
    return this.#locks.run(this.dirOf(project, branch), fn);
  }

  async #read<T>(file: KeptFile<T>, empty: T): Promise<Read<T>> {
    const read = await file.read();
    if (read.state === "damaged") return { outcome: "failed", value: read.why };
    return { outcome: "read", value: read.state === "read" ? read.value : empty };
  }
}
