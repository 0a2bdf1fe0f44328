import type { CronEntry } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import type { Fired } from "./cron_file.ts";

/** Whom a fire's words go to and what announces them: the fields of a schedule a delivery reads,
 * and its name as `cron_names` gives it. */
export type CronTarget = Pick<CronEntry, "id" | "org" | "project" | "description"> & {
  name: string;
};

/**
 * Hands a fire's words to the project's lead; rejects with a sentence when it cannot. `once`:
 * this very fire (its uuid) was handed over before forge went down, so the delivery checks the
 * lead's transcript first and sends nothing when the prompt already landed.
 */
export type CronDeliver = (
  target: CronTarget,
  text: string,
  uuid: string,
  once: boolean,
) => Promise<void>;

/**
 * The boot's second look at fires a lead was handed and had not started when forge stopped (a
 * lead mid-turn keeps a prompt in its CLI's queue, in memory, and a restart ends that CLI): each
 * is handed over again, under its own uuid and with `once`, so one the CLI did start before the
 * restart (its row is in the transcript) is not sent twice. Answers the uuids handed over, whose
 * `waiting` the caller clears: the lead a delivery wakes is idle and starts it at once. One that
 * cannot be handed over stays waiting for the next boot, logged.
 */
export async function handOverAgain(
  fired: Iterable<Fired>,
  deliver: CronDeliver,
  log: Logger,
): Promise<string[]> {
  const done: string[] = [];
  for (const f of fired) {
    const w = f.waiting;
    if (!w) continue;
    const target = {
      id: f.cron_id,
      org: w.org,
      project: w.project,
      description: w.description,
      name: f.name,
    };
    try {
      await deliver(target, w.text, f.uuid, true);
      log.info("cron_fire_handed_again", { cron: f.cron_id, project: w.project, uuid: f.uuid });
      done.push(f.uuid);
    } catch (err) {
      const why = (err as Error).message ?? String(err);
      log.warn("cron_fire_still_waiting", { cron: f.cron_id, project: w.project, why });
    }
  }
  return done;
}

/** Clears a fire's `waiting` (its CLI moved it, or it was handed over again); false: it was not. */
export function clearWaiting(fired: Map<string, Fired>, uuid: string): boolean {
  const f = fired.get(uuid);
  if (!f?.waiting) return false;
  const { waiting: _, ...rest } = f;
  fired.set(uuid, rest);
  return true;
}
