import type { Command } from "../../protocol/mod.ts";
import { type Host, Refusal, StateWriteError } from "../../server/subsystem.ts";
import type { ThreadStore } from "./threads.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

/**
 * A person's review thread writes: save, remove, set a status, upsert, submit a review. Each that
 * lands goes through `written`, which tells every viewer of the branch. spec: command > reply_to
 * ("the three review writes"). A store that cannot be written refuses in the keeper's words; a
 * project the config does not declare is refused before anything is read or written, so a
 * client cannot make a store (and a keeper handle kept for the server's life) for any name.
 */
export function threadCommands(
  host: Host,
  threads: ThreadStore,
  written: <T>(project: string, branch: string, result: T) => T,
) {
  /** The fields' project and branch, once the project is one the config declares. */
  const scope = <F extends { project: string; branch: string }>(what: string, fields: F): F => {
    const projects = host.workspace.projects();
    if (!projects.some((p) => p.name === fields.project)) {
      const named = [...new Set(projects.map((p) => p.name))].map((n) => `\`${n}\``);
      throw new Refusal(
        "dispatch",
        `${what}: no project is named \`${fields.project.slice(0, 64)}\`; the projects are ${
          named.join(", ") || "none"
        }`,
      );
    }
    return fields;
  };
  return {
    // The thread shapes were checked by the command's schema; what is left is the store. A
    // Refusal, not an Error: the dispatcher prefixes an Error's words with the command's name,
    // and these sentences already start with it.
    save_review_threads: async (c: Cmd<"save_review_threads">) => {
      const { project, branch } = scope("save_review_threads", c.fields);
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
      const { project, branch, thread_id } = scope("remove_review_thread", c.fields);
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
      const { project, branch, thread_id, status } = scope("set_review_thread_status", c.fields);
      const ok = await threads.setStatus(project, branch, thread_id, status).catch((error) => {
        // The reply is the spec's bool (written or not); the keeper's words go to the log.
        host.log.warn("review_status_unwritten", { project, branch, error });
        return false;
      });
      return ok ? written(project, branch, true) : false;
    },
    upsert_review_thread: async (c: Cmd<"upsert_review_thread">) => {
      const { project, branch } = scope("upsert_review_thread", c.fields);
      const ok = await threads.upsert(project, branch, c.fields.thread);
      return ok ? written(project, branch, true) : false;
    },
    submit_review: async (c: Cmd<"submit_review">) => {
      const { project, branch } = scope("submit_review", c.fields);
      const set = await threads.submitReview(
        project,
        branch,
        c.fields.summary,
        c.fields.thread_ids,
      );
      return set ? written(project, branch, set) : null;
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
