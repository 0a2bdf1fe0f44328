import {
  type ClientMessageOf,
  type SessionPart,
  type SessionUpdate,
  type Slot,
} from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal, toolHandlers } from "../../server/subsystem.ts";
import { notASeat } from "../../server/workspace/workspace.ts";
import { ReviewActivity } from "./activity.ts";
import { reviewTools } from "./agent_tools.ts";
import { BaseStore } from "./base.ts";
import { readDocument } from "./document.ts";
import { DOCUMENT_TOOLS, documentHandOff } from "./hand_off_tool.ts";
import { PrLookup } from "./pr.ts";
import { readRecord } from "./record.ts";
import { ThreadStore } from "./threads.ts";
import { SeatWatch } from "./watch.ts";
import { SeatWatches } from "./watches.ts";
import { readVerbs } from "./read_verbs.ts";
import { threadCommands } from "./thread_commands.ts";

/**
 * The review subsystem: the session record's work, git, pr, closes, diff, file_index and reviews
 * rows, the document and file reads, commit_diff, and the review thread writes. spec: session
 * table; document_read; file_content; "What is not here" (commit_diff); command > reply_to.
 */
export function create(host: Host) {
  const baseStore = new BaseStore({
    log: host.log,
    onMeasured: (cwd) => {
      for (const w of watches.all()) if (w.cwd === cwd) w.pass();
    },
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
    if (!seat) throw new Refusal(what, `${what}: ${notASeat(slot)}`, slot);
    return seat;
  };
  // A seat's watch runs while someone holds its session subject (watches.ts).
  const watches = new SeatWatches(host, (slot, cwd) =>
    new SeatWatch(slot, cwd, {
      host,
      baseStore,
      pr,
      hasSession: () => host.workspace.seat(slot)?.sessionId() != null,
    }));
  const maxMib = () => host.config().documents.max_size_mib;
  const branchOf = async (slot: Slot) => (await readRecordFor(slot, false)).work.branch ?? "HEAD";
  // A seat already watched serves its stores; any other is read now.
  const readRecordFor = (slot: Slot, review: boolean) => {
    const seat = seatOf(slot, "subscribe");
    const w = watches.live(slot, seat.cwd);
    if (w) return w.record(review);
    return readRecord(seat.cwd, { baseStore, review, hasSession: seat.sessionId() !== null });
  };

  return {
    verbs: {
      ...readVerbs({ seatOf, maxMib, branchOf, threads, log: host.log }),
      // The envelope read the answer (protocol/documents.ts HandOffAnswer); the parked
      // document__hand_off call (hand_off_tool.ts) gets the decision.
      answer_document_hand_off: (msg: ClientMessageOf<"answer_document_hand_off">, peer: Peer) => {
        host.asks.answer(
          msg.key,
          "document_hand_off",
          msg.id,
          peer,
          msg.answer === "not_now"
            ? { ending: "declined" }
            : { ending: "answered", answer: msg.answer },
        );
      },
    },
    commands: threadCommands(host, threads, written),
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
      const watch = watches.forRead(slot, seat.cwd);
      const record = await watch.record(opts.review);
      const rows = await watch.rows(record.work, record.git);
      watch.held(rows);
      watch.refreshPr(record.work.branch ?? null);
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
      watches.stop();
      return Promise.resolve();
    },
  };
}
