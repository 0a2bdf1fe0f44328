import {
  type ClientMessageOf,
  type Command,
  type SessionPart,
  type SessionUpdate,
  type Slot,
  slotName,
  type Wire,
} from "../../protocol/mod.ts";
import {
  type Host,
  type Peer,
  Refusal,
  StateWriteError,
  toolHandlers,
} from "../../server/subsystem.ts";
import { ReviewActivity } from "./activity.ts";
import { reviewTools } from "./agent_tools.ts";
import { BaseStore } from "./base.ts";
import { commitDiff } from "./diff.ts";
import { readDocument } from "./document.ts";
import { fileContentMessage } from "./file_content.ts";
import { parseHandOffAnswer } from "./hand_off.ts";
import { DOCUMENT_TOOLS, documentHandOff } from "./hand_off_tool.ts";
import { PrLookup } from "./pr.ts";
import { readRecord } from "./record.ts";
import { ThreadStore } from "./threads.ts";
import { SeatWatch } from "./watch.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

/**
 * The review subsystem: the session record's work, git, pr, closes, diff, file_index and reviews
 * rows, the document and file reads, commit_diff, and the review thread writes. spec: session
 * table; document_read; file_content; "What is not here" (commit_diff); command > reply_to.
 */
export function create(host: Host) {
  const watches = new Map<string, SeatWatch>();
  const baseStore = new BaseStore({
    log: host.log,
    onMeasured: (cwd) => watches.forEach((w) => w.cwd === cwd && w.pass()),
  });
  let prReason: string | null = null;
  const pr = new PrLookup({
    onUnavailable: (reason) => {
      if (reason === prReason) return;
      prReason = reason;
      host.log.info("review_pr_unavailable", { why: reason }); // spec: logged once, not per read
    },
  });
  const threads = new ThreadStore(host.state, host.stateDir);
  const activity = new ReviewActivity(host, threads);
  let stopping = false;
  /** A person's write landed: every viewer of the branch hears the threads move. */
  const written = <T>(project: string, branch: string, result: T): T => {
    activity.threadsChanged({ project, branch }).catch((error) =>
      host.log.warn("review_threads_push_failed", { project, branch, error })
    );
    return result;
  };

  const seatOf = (slot: Slot, what: string) => {
    const seat = host.workspace.seat(slot);
    if (!seat) throw new Refusal(what, `${what}: ${slotName(slot)} is not a seat`, slot);
    return seat;
  };
  const watchOf = (slot: Slot): SeatWatch => {
    const seat = seatOf(slot, "subscribe");
    const name = slotName(slot);
    let w = watches.get(name);
    if (w && w.cwd !== seat.cwd) {
      w.stop();
      w = undefined;
    }
    if (!w) {
      w = new SeatWatch(slot, seat.cwd, {
        host,
        baseStore,
        pr,
        hasSession: () => host.workspace.seat(slot)?.sessionId() != null,
      });
      w.start();
      watches.set(name, w);
    }
    return w;
  };
  const maxMib = () => host.config().documents.max_size_mib;
  const branchOf = async (slot: Slot) => (await readRecordFor(slot, false)).work.branch ?? "HEAD";
  // A seat already watched serves its stores; any other is read now.
  const readRecordFor = (slot: Slot, review: boolean) => {
    const seat = seatOf(slot, "subscribe");
    const w = watches.get(slotName(slot));
    if (w && w.cwd === seat.cwd) return w.record(review);
    return readRecord(seat.cwd, { baseStore, review, hasSession: seat.sessionId() !== null });
  };

  return {
    verbs: {
      file_content: async (msg: ClientMessageOf<"file_content">, peer: Peer) => {
        const seat = seatOf(msg.session, "file_content");
        // spec: there is no error arm: a read that could not run answers with state failed.
        const answer = await fileContentMessage(msg.session, seat.cwd, msg.path, msg.sha, maxMib());
        peer.send({ kind: "file_content", ...answer });
      },
      commit_diff: async (msg: ClientMessageOf<"commit_diff">, peer: Peer) => {
        const seat = seatOf(msg.session, "commit_diff");
        const result = await commitDiff(seat.cwd, msg.sha);
        if (msg.reply_to != null) {
          const body: Wire = result.ok
            ? { ok: true, commit: result.commit, diff: result.diff }
            : { ok: false, why: result.why };
          peer.send({ kind: "reply", reply_to: msg.reply_to, body });
        } else if (!result.ok) {
          throw new Refusal("commit_diff", `commit_diff: ${result.why}`, msg.session);
        } else {
          const { commit, diff } = result;
          peer.send({
            kind: "commit_diff",
            session: msg.session,
            sha: msg.sha,
            ok: true,
            commit,
            diff,
          });
        }
      },
      document_read: async (msg: ClientMessageOf<"document_read">, peer: Peer) => {
        const seat = seatOf(msg.session, "document_read");
        const read = await readDocument(msg.session, {
          tree: seat.cwd,
          roots: seat.project.document_roots,
          path: msg.path,
          reviewable: msg.reviewable,
          maxSizeMib: maxMib(),
          store: threads,
          project: seat.project.name,
          branch: await branchOf(msg.session),
        });
        if (!read.ok) throw new Refusal("document_read", read.why, msg.session);
        peer.send({ kind: "document_read", ...read.message });
      },
      answer_document_hand_off: (msg: ClientMessageOf<"answer_document_hand_off">, peer: Peer) => {
        const answer = parseHandOffAnswer(msg.answer);
        if (!answer.ok) throw new Refusal("answer_document_hand_off", answer.why, msg.key);
        // The parked document__hand_off call (hand_off_tool.ts) gets the decision.
        host.asks.answer(
          msg.key,
          "document_hand_off",
          msg.id,
          peer,
          answer.answer === "not_now"
            ? { ending: "declined" }
            : { ending: "answered", answer: answer.answer },
        );
      },
    },
    commands: {
      // The thread shapes were checked by the command's schema; what is left is the store. A
      // Refusal, not an Error: the dispatcher prefixes an Error's words with the command's name,
      // and these sentences already start with it.
      save_review_threads: async (c: Cmd<"save_review_threads">) => {
        const { project, branch } = c.fields;
        await threads.save(project, branch, c.fields.threads).catch((err) => {
          throw storeRefusal(
            "save_review_threads",
            `the threads of ${project}@${branch} were not written`,
            err,
            host,
          );
        });
        written(project, branch, null);
      },
      remove_review_thread: async (c: Cmd<"remove_review_thread">) => {
        const { project, branch, thread_id } = c.fields;
        const removed = await threads.remove(project, branch, thread_id).catch((err) => {
          throw storeRefusal("remove_review_thread", `${thread_id} was not removed`, err, host);
        });
        if (!removed) {
          throw new Refusal(
            "dispatch",
            `remove_review_thread: no thread ${thread_id} in ${project}@${branch}`,
          );
        }
        written(project, branch, null);
      },
      // The third review write (spec: command > reply_to, "the three review writes"): its
      // reply is the bool upsert's is, true when the status was written.
      set_review_thread_status: async (c: Cmd<"set_review_thread_status">) => {
        const { project, branch, thread_id, status } = c.fields;
        const ok = await threads.setStatus(project, branch, thread_id, status).catch((error) => {
          // The reply is the spec's bool (written or not); the keeper's words go to the log.
          host.log.warn("review_status_unwritten", { project, branch, error });
          return false;
        });
        return ok ? written(project, branch, true) : false;
      },
      upsert_review_thread: async (c: Cmd<"upsert_review_thread">) => {
        const { project, branch } = c.fields;
        const ok = await threads.upsert(project, branch, c.fields.thread);
        return ok ? written(project, branch, true) : false;
      },
      submit_review: async (c: Cmd<"submit_review">) => {
        const { project, branch } = c.fields;
        const set = await threads.submitReview(
          project,
          branch,
          c.fields.summary,
          c.fields.thread_ids,
        );
        return set ? written(project, branch, set) : null;
      },
    },
    subjects: {},
    tools: {
      ...reviewTools({ store: threads, activity, shuttingDown: () => stopping }),
      ...toolHandlers(DOCUMENT_TOOLS)({
        document__hand_off: documentHandOff(
          host,
          async (call, path, reviewable) =>
            readDocument(call.seat.slot, {
              tree: call.seat.cwd,
              roots: call.seat.project.document_roots,
              path,
              reviewable,
              maxSizeMib: maxMib(),
              store: threads,
              project: call.seat.project.name,
              branch: await branchOf(call.seat.slot),
            }),
        ),
      }),
    },
    sessionFields: async (slot: Slot, opts: { review: boolean }): Promise<SessionPart> => {
      const seat = seatOf(slot, "subscribe");
      const watch = watchOf(slot);
      const record = await watch.record(opts.review);
      const rows = await watch.rows(record.work, record.git);
      watch.held(rows);
      const reviews = await threads.readScope(seat.project.name, record.work.branch ?? "HEAD");
      return {
        ...rows,
        diff: record.diff,
        file_index: await watch.index.snapshot(),
        reviews,
      };
    },
    onUpdate: (u: SessionUpdate) => void activity.onUpdate(u),
    stop: () => {
      stopping = true;
      for (const w of watches.values()) w.stop();
      return Promise.resolve();
    },
  };
}

/** A store's refusal in the keeper's words; anything else is logged and not passed on. */
function storeRefusal(what: string, outcome: string, err: unknown, host: Host): Refusal {
  if (err instanceof StateWriteError) {
    return new Refusal("dispatch", `${what}: ${outcome}: ${err.message}`);
  }
  host.log.error("review_store_failed", { command: what, error: err });
  return new Refusal("dispatch", `${what}: ${outcome}: forge could not run the change`);
}
