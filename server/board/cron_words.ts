import type { CronEntry } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { StateWriteError } from "../state/keeper.ts";
import { occurrencesDue, scheduleText } from "./schedule.ts";

/**
 * The first words of a missed fire: when it was due, how many occurrences fell due, why it is
 * late (forge was down: the boot catch-up; or it could not fire in time), and that it fires once.
 */
export function missedPreface(e: CronEntry, dueAt: number, now: number, down: boolean): string {
  const n = occurrencesDue(e.schedule, dueAt, now);
  const count = n === 1 ? "its one occurrence" : `${n} occurrences`;
  const why = down ? "while forge was not running" : "and forge could not fire it in time";
  return `[missed cron ${e.id}] This schedule (${scheduleText(e.schedule)}) was due at ` +
    `${new Date(dueAt).toISOString()} ${why}; ${count} fell due, and it fires once now.\n\n`;
}

/** A keeper's words pass on as they are; anything else is logged and said in forge's words. */
export function stateWords(err: unknown, log: Logger): string {
  if (err instanceof StateWriteError) return err.message;
  log.error("cron_change_failed", { error: err });
  return "forge could not run the change";
}
