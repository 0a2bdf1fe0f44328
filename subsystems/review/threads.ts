/**
 * Review threads and review rounds per project and branch (spec: session row `reviews`; the
 * review commands `upsert_review_thread`, `submit_review`, `save_review_threads`,
 * `remove_review_thread`, `set_review_thread_status`). Persisted as JSON under forge's state
 * directory, one directory per (project, branch), written atomically (temp file + fsync +
 * rename). Threads and reviews are separate files read separately, so an unreadable one is
 * reported as `{outcome: "failed"}` and never as empty, and a write never replaces a store it
 * could not read.
 */
import { z } from "zod";
import type { Read } from "./wire.ts";

/** A thread's lifecycle: a worker reply makes it addressed; only the reviewer resolves. */
export const ReviewStatus = z.enum(["open", "addressed", "resolved", "outdated"]);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

/**
 * Where a thread sits. `context` holds the captured lines, FIRST the anchored line itself (line
 * `line` on `side` when captured); that first line is what re-finds the anchor after edits.
 * `content_hash` is that line's {@link contentHash}, decimal digits.
 */
export const ReviewAnchor = z.object({
  path: z.string(),
  side: z.enum(["old", "new"]),
  line: z.number().int().nonnegative(),
  content_hash: z.string().regex(/^\d+$/),
  context: z.array(z.string()),
  base_ref: z.string(),
}).strict();
export type ReviewAnchor = z.infer<typeof ReviewAnchor>;

/** Who wrote a turn: `"user"` or `{"agent": {"label": ...}}`. */
export const ReviewAuthor = z.union([
  z.literal("user"),
  z.object({ agent: z.object({ label: z.string() }).strict() }).strict(),
]);

/** One turn; `review_id` is the review round that sealed it (null: not yet filed). */
export const ReviewComment = z.object({
  author: ReviewAuthor,
  text: z.string(),
  at: z.string(),
  review_id: z.string().nullable(),
}).strict();
export type ReviewComment = z.infer<typeof ReviewComment>;

/** A thread: an anchor, its turns and state; `commit` is the commit scope (null: whole diff). */
export const ReviewThread = z.object({
  id: z.string().min(1),
  anchor: ReviewAnchor,
  comments: z.array(ReviewComment),
  status: ReviewStatus,
  created_at: z.string(),
  updated_at: z.string(),
  commit: z.string().nullable(),
}).strict();
export type ReviewThread = z.infer<typeof ReviewThread>;

/** A submitted review round: `number` is 1-based per (project, branch). */
export const ReviewSet = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  summary: z.string().nullable(),
  created_at: z.string(),
}).strict();
export type ReviewSet = z.infer<typeof ReviewSet>;

const ThreadsFile = z.object({ threads: z.array(ReviewThread) });
const ReviewsFile = z.object({ reviews: z.array(ReviewSet) });

/** The `reviews` row: both reads, each on its own. */
export interface ReviewScope {
  threads: Read<ReviewThread[]>;
  reviews: Read<ReviewSet[]>;
}

/** A directory-safe name: percent-encoding plus `.` encoded, so `..` can never be a segment. */
function segment(name: string): string {
  return encodeURIComponent(name).replaceAll(".", "%2E") || "%00";
}

/** Per (project, branch) thread and review storage under `stateDir`. */
export class ThreadStore {
  #locks = new Map<string, Promise<unknown>>();
  constructor(readonly stateDir: string, readonly now: () => Date = () => new Date()) {}

  /** The directory one (project, branch) lives in. */
  dirOf(project: string, branch: string): string {
    return `${this.stateDir}/reviews/${segment(project)}/${segment(branch)}`;
  }

  /** The threads, or why they could not be read. A store never written reads as []. */
  readThreads(project: string, branch: string): Promise<Read<ReviewThread[]>> {
    return this.#read(
      `${this.dirOf(project, branch)}/threads.json`,
      ThreadsFile,
      "threads",
      project,
      branch,
    )
      .then((r) => r.outcome === "read" ? { outcome: "read", value: r.value.threads } : r);
  }

  /** The submitted reviews, or why they could not be read. */
  readReviews(project: string, branch: string): Promise<Read<ReviewSet[]>> {
    return this.#read(
      `${this.dirOf(project, branch)}/reviews.json`,
      ReviewsFile,
      "reviews",
      project,
      branch,
    )
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

  /** Insert or replace one thread by id. False when the thread is malformed or nothing was written. */
  upsert(project: string, branch: string, thread: unknown): Promise<boolean> {
    const parsed = ReviewThread.safeParse(thread);
    if (!parsed.success) return Promise.resolve(false);
    return this.#mutate(project, branch, (threads) => {
      const i = threads.findIndex((t) => t.id === parsed.data.id);
      if (i >= 0) threads[i] = parsed.data;
      else threads.push(parsed.data);
      return threads;
    });
  }

  /** Overwrite the whole set. False when any thread is malformed or the write failed. */
  async save(project: string, branch: string, threads: unknown[]): Promise<boolean> {
    const parsed = z.array(ReviewThread).safeParse(threads);
    if (!parsed.success) return false;
    return await this.#locked(project, branch, async () => {
      const file = `${this.dirOf(project, branch)}/threads.json`;
      return await writeAtomic(file, { threads: parsed.data });
    });
  }

  /** Delete one thread. False when it was not there or the store could not be read or written. */
  remove(project: string, branch: string, threadId: string): Promise<boolean> {
    return this.#mutate(project, branch, (threads) => {
      const kept = threads.filter((t) => t.id !== threadId);
      return kept.length === threads.length ? null : kept;
    });
  }

  /** Set one thread's status. False when the status is unknown or the thread is not there. */
  setStatus(project: string, branch: string, threadId: string, status: string): Promise<boolean> {
    const parsed = ReviewStatus.safeParse(status);
    if (!parsed.success) return Promise.resolve(false);
    return this.#mutate(project, branch, (threads) => {
      const t = threads.find((x) => x.id === threadId);
      if (!t) return null;
      t.status = parsed.data;
      t.updated_at = this.now().toISOString();
      return threads;
    });
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
        number: reviews.value.length + 1,
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
      const dir = this.dirOf(project, branch);
      // Reviews first: a round with no members is harmless, members of a missing round are not.
      if (!(await writeAtomic(`${dir}/reviews.json`, { reviews: [...reviews.value, set] }))) {
        return null;
      }
      if (!(await writeAtomic(`${dir}/threads.json`, { threads: threads.value }))) return null;
      return set;
    });
  }

  /** Read-modify-write the threads under the scope's lock; `change` returning null writes nothing. */
  #mutate(
    project: string,
    branch: string,
    change: (threads: ReviewThread[]) => ReviewThread[] | null,
  ): Promise<boolean> {
    return this.#locked(project, branch, async () => {
      const current = await this.readThreads(project, branch);
      if (current.outcome !== "read") return false;
      const next = change(current.value);
      if (next === null) return false;
      return await writeAtomic(`${this.dirOf(project, branch)}/threads.json`, { threads: next });
    });
  }

  /** Run `fn` after every earlier write to the same scope (in-process serialisation). */
  #locked<T>(project: string, branch: string, fn: () => Promise<T>): Promise<T> {
    const key = this.dirOf(project, branch);
    const prev = this.#locks.get(key) ?? Promise.resolve();
    const run = prev.catch(() => {}).then(fn);
    this.#locks.set(key, run);
    return run;
  }

  async #read<T>(
    file: string,
    schema: z.ZodType<T>,
    what: string,
    project: string,
    branch: string,
  ): Promise<Read<T>> {
    let raw: string;
    try {
      raw = await Deno.readTextFile(file);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        return {
          outcome: "read",
          value: schema.parse(what === "threads" ? { threads: [] } : { reviews: [] }),
        };
      }
      return {
        outcome: "failed",
        value: `review ${what} for ${project}/${branch} could not be read: ${message(err)}`,
      };
    }
    try {
      const parsed = schema.safeParse(JSON.parse(raw));
      if (parsed.success) return { outcome: "read", value: parsed.data };
      return {
        outcome: "failed",
        value: `review ${what} for ${project}/${branch} could not be read: ${
          parsed.error.issues[0]?.message
        }`,
      };
    } catch (err) {
      return {
        outcome: "failed",
        value: `review ${what} for ${project}/${branch} could not be read: ${message(err)}`,
      };
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Write JSON to `file` atomically: a sibling temp file, fsync, then rename over. */
export async function writeAtomic(file: string, value: unknown): Promise<boolean> {
  const dir = file.slice(0, file.lastIndexOf("/"));
  const tmp = `${file}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    const f = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
    try {
      const bytes = new TextEncoder().encode(JSON.stringify(value, null, 1));
      for (let at = 0; at < bytes.length;) at += await f.write(bytes.subarray(at));
      await f.sync();
    } finally {
      f.close();
    }
    await Deno.rename(tmp, file);
    return true;
  } catch {
    await Deno.remove(tmp).catch(() => {});
    return false;
  }
}
