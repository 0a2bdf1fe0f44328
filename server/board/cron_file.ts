import { z } from "zod";
import { CronEntry } from "../../protocol/mod.ts";
import { schemaParse } from "../state/keeper.ts";
import { cronOf, instantOf } from "./schedule.ts";

/** `state/board/cron.json`: every project's schedules. */
export const CronFile = z.object({ version: z.literal(1), crons: z.array(CronEntry) }).strict();
export type CronFile = z.infer<typeof CronFile>;

/**
 * A fire handed to its lead that the lead's CLI has not started yet: a lead mid-turn holds it in
 * the CLI's own queue, in memory, so a restart would lose it. Kept with the words as handed over
 * and whom they went to, so the next boot hands them over again (cron_waiting.ts).
 */
export const WaitingFire = z.object({
  org: z.string(),
  project: z.string(),
  description: z.string().nullable(),
  text: z.string(),
}).strict();
export type WaitingFire = z.infer<typeof WaitingFire>;

/**
 * A fire's prompt: `due` is the occurrence it fired for, so a restart knows it was begun;
 * `waiting` is there from its hand-over until the lead's CLI moves it out of its queue.
 */
export const Fired = z.object({
  uuid: z.string(),
  cron_id: z.string(),
  name: z.string(),
  due: z.string().optional(),
  waiting: WaitingFire.optional(),
}).strict();
export type Fired = z.infer<typeof Fired>;

/** `state/board/cron_fired.json`: the schedule each fired prompt came from. */
export const FiredFile = z.object({ version: z.literal(1), fired: z.array(Fired) }).strict();
export type FiredFile = z.infer<typeof FiredFile>;

const asScheduleList = schemaParse(CronFile, "a schedule list");

/** The keeper's parse of the fired prompts' file. */
export const parseFiredFile = schemaParse(FiredFile, "a list of fired prompts");

/**
 * The keeper's parse of the schedules' file: the shape, and then every entry as forge can fire
 * it - its `next_fire` (and a one-shot's `once_at`) an RFC 3339 instant, a recurring schedule an
 * expression forge reads, each by the same parse a schedule is created with (schedule.ts). One
 * entry that is not makes the whole file damaged, as any file that does not parse: the keeper
 * reads a file as what forge wrote or not at all, so a hand edit or an older file is never half
 * taken in (its bad entry dropped, then written over by the next change). The words name the
 * entry and what is wrong with it.
 */
export function parseCronFile(raw: unknown): CronFile {
  const file = asScheduleList(raw);
  for (const [i, e] of file.crons.entries()) {
    const fault = entryFault(e);
    if (fault !== null) {
      throw new Error(`schedule \`${e.id}\` at crons.${i} cannot be fired: ${fault}`);
    }
  }
  return file;
}

/** What keeps forge from firing a stored entry, in forge's words; null when nothing does. */
function entryFault(e: CronEntry): string | null {
  if (Number.isNaN(instantOf(e.next_fire))) {
    return `its next_fire \`${e.next_fire}\` is not an RFC 3339 instant (like ` +
      `2026-12-02T17:30:00Z)`;
  }
  if ("once_at" in e.schedule) {
    if (!Number.isNaN(instantOf(e.schedule.once_at))) return null;
    return `its once_at \`${e.schedule.once_at}\` is not an RFC 3339 instant`;
  }
  try {
    cronOf(e.schedule.recurring);
    return null;
  } catch (err) {
    return `its recurring schedule ${(err as Error).message}`;
  }
}
