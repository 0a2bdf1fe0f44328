import { type ClientMessageOf, type CommitDiffReply, type Slot } from "../../protocol/mod.ts";
import { type Peer, Refusal } from "../../server/subsystem.ts";
import type { Logger } from "../../server/log.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { commitDiff } from "./diff.ts";
import { readDocument } from "./document.ts";
import { fileContentMessage } from "./file_content.ts";
import type { ThreadStore } from "./threads.ts";

export interface ReadDeps {
  /** The seat a message names, or a refusal in the verb's words. */
  seatOf(slot: Slot, what: string): SeatInfo;
  /** `[documents] max_size_mib` in force now. */
  maxMib(): number;
  /** The seat's branch, for the document's review threads. */
  branchOf(slot: Slot): Promise<string>;
  threads: ThreadStore;
  /** Where a read's engine failure goes (the answer says it in forge's words). */
  log: Logger;
}

/**
 * The reads a client asks of a seat's tree: a file's content, one commit's diff, a document.
 * spec: file_content; "What is not here" (commit_diff); document_read.
 */
export function readVerbs({ seatOf, maxMib, branchOf, threads, log }: ReadDeps) {
  return {
    file_content: async (msg: ClientMessageOf<"file_content">, peer: Peer) => {
      const seat = seatOf(msg.session, "file_content");
      // spec: there is no error arm: a read that could not run answers with state failed.
      const answer = await fileContentMessage(
        msg.session,
        seat.cwd,
        msg.path,
        msg.sha,
        maxMib(),
        log,
      );
      peer.send({ kind: "file_content", ...answer });
    },
    commit_diff: async (msg: ClientMessageOf<"commit_diff">, peer: Peer) => {
      const seat = seatOf(msg.session, "commit_diff");
      const result = await commitDiff(seat.cwd, msg.sha);
      if (msg.reply_to != null) {
        const body: CommitDiffReply = result.ok
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
  };
}
