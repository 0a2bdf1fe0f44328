import { Cron } from "croner";
import type { CronEntry, CronSchedule } from "../../protocol/mod.ts";
import { BoardError } from "./tasks.ts";

/**
 * Schedule math, and nothing else: croner (npm) parses a 5-field expression in the host's local
 * time and names its next fire. It never runs a timer of its own here (no callback is given):
 * forge's one tick fires what is due (cron.ts), so a restart, a sleep or a clock jump all follow
 * one rule. As the original forge's `cron` tool family takes it: exactly one of a 5-field
 * `schedule` or an RFC 3339 `run_once_at`.
 */

/** RFC 3339 date-time: a date, `T`, a time and an offset (`Z` or `±hh:mm`). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** How many missed occurrences the catch-up counts before it stops counting. */
export const MISSED_COUNT_CAP = 1000;

/** Parses the agent's schedule; throws a BoardError naming the field that is wrong. */
export function parseSchedule(
  input: { schedule?: string; run_once_at?: string },
  now: number,
): { schedule: CronSchedule; next: number } {
  const hasExpr = input.schedule !== undefined && input.schedule.trim() !== "";
  const hasOnce = input.run_once_at !== undefined && input.run_once_at.trim() !== "";
  if (hasExpr === hasOnce) {
    throw new BoardError(
      "schedule, run_once_at: give exactly one - a 5-field cron expression or one RFC 3339 instant",
    );
  }
  if (hasOnce) {
    const text = input.run_once_at!.trim();
    const at = instantOf(text);
    if (Number.isNaN(at)) {
      throw new BoardError(
        `run_once_at: \`${text}\` is not an RFC 3339 instant (like 2026-12-02T17:30:00Z)`,
      );
    }
    if (at <= now) throw new BoardError(`run_once_at: \`${text}\` is already in the past`);
    return { schedule: { once_at: new Date(at).toISOString() }, next: at };
  }
  const expr = input.schedule!.trim().replace(/\s+/g, " ");
  let cron: Cron;
  try {
    cron = cronOf(expr);
  } catch (err) {
    throw new BoardError(`schedule: ${(err as Error).message}`);
  }
  const next = cron.nextRun(new Date(now));
  if (!next) throw new BoardError(`schedule: \`${expr}\` has no upcoming occurrence`);
  return { schedule: { recurring: expr }, next: next.getTime() };
}

/**
 * The instant an RFC 3339 date-time names (epoch ms), or NaN when `text` is not one or names a
 * day the calendar does not have. The one reading of an instant: a `run_once_at` given, and a
 * `next_fire` or `once_at` read back from the schedules' file.
 */
export function instantOf(text: string): number {
  return RFC3339.test(text) && onCalendar(text) ? Date.parse(text) : NaN;
}

/**
 * The expression as forge reads it (croner, 5 fields, host local time); throws a BoardError
 * saying in forge's words which part is wrong (`\`61 * * * *\` is not a 5-field cron
 * expression: the minute field ...`). The one parse of an expression: a schedule created, one
 * read back from the schedules' file, and each fire's count and advance.
 */
export function cronOf(expr: string): Cron {
  try {
    return new Cron(expr, { mode: "5-part" });
  } catch {
    // croner's own words stay out (they name its pattern modes): whyNot names the field.
    throw new BoardError(`\`${expr}\` is not a 5-field cron expression: ${whyNot(expr)}`);
  }
}

/**
 * Whether the instant's date is a day the calendar has: `Date.parse` rolls 2027-02-30 over to
 * March 2nd, which would fire a schedule on a day nobody named.
 */
function onCalendar(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split("-").map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** The five fields in their order, each with what it takes. */
const FIELDS = [
  ["minute", "0-59"],
  ["hour", "0-23"],
  ["day-of-month", "1-31"],
  ["month", "1-12 or JAN-DEC"],
  ["day-of-week", "0-7 or SUN-SAT"],
] as const;

/**
 * Which part of an expression croner refused, in forge's words: the field count, or the first
 * field that fails alone (tried with every other field `*`). croner's own message is never
 * passed on - it names its own pattern modes, not what the person typed.
 */
function whyNot(expr: string): string {
  const parts = expr.split(" ");
  if (parts.length !== FIELDS.length) {
    return `it has ${parts.length} field${parts.length === 1 ? "" : "s"}, and a schedule has ` +
      `five: ${FIELDS.map(([name]) => name).join(", ")}`;
  }
  for (const [i, [name, takes]] of FIELDS.entries()) {
    const alone = FIELDS.map((_, j) => j === i ? parts[i] : "*").join(" ");
    try {
      new Cron(alone, { mode: "5-part" });
    } catch {
      // The parser's words stay out: the field it could not read is named, and what it takes.
      return `the ${name} field \`${parts[i]}\` cannot be read: it takes ${takes}, a range a-b, ` +
        `a list a,b or a step */n`;
    }
  }
  return "its fields do not make a schedule together";
}

/**
 * The first fire strictly after `after`; null for a one-shot (it fires once) or no occurrence.
 * Throws a BoardError for an expression forge cannot read.
 */
export function nextAfter(schedule: CronSchedule, after: number): number | null {
  if (!("recurring" in schedule)) return null;
  return cronOf(schedule.recurring).nextRun(new Date(after))?.getTime() ?? null;
}

/** How many occurrences fell due from `due` up to `now` (1 when only `due` did), capped. */
export function occurrencesDue(schedule: CronSchedule, due: number, now: number): number {
  if (!("recurring" in schedule)) return 1;
  const cron = cronOf(schedule.recurring);
  let n = 1;
  for (let t = cron.nextRun(new Date(due)); t && t.getTime() <= now; t = cron.nextRun(t)) {
    if (++n >= MISSED_COUNT_CAP) break;
  }
  return n;
}

/**
 * A schedule's name, as a fired prompt is labelled with it (spec: page > cron_names, and
 * cron_prompt_appended's `name`): its description, else its expression or instant.
 */
export function cronName(e: { description: string | null; schedule: CronSchedule }): string {
  return e.description ?? scheduleText(e.schedule);
}

/** The words a schedule is drawn with: its expression or its instant. */
export function scheduleText(schedule: CronSchedule): string {
  return "recurring" in schedule ? schedule.recurring : `once at ${schedule.once_at}`;
}

/**
 * A schedule after its fire at `now`: delivered, it advances to its next occurrence from now (a
 * one-shot, or a schedule with none left, is gone); undelivered (`failed` says why), it stays,
 * saying so, and is tried again `retryMs` from now.
 */
export function afterFire(
  e: CronEntry,
  now: number,
  failed: string | null,
  retryMs: number,
): CronEntry[] {
  if (failed !== null) {
    return [{ ...e, last_error: failed, next_fire: new Date(now + retryMs).toISOString() }];
  }
  const next = nextAfter(e.schedule, now);
  if (next === null) return [];
  return [{
    ...e,
    last_fired: new Date(now).toISOString(),
    last_error: null,
    next_fire: new Date(next).toISOString(),
  }];
}
