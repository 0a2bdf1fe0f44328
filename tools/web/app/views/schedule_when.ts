/**
 * What the schedule form's one "when" box means, read before anything is sent: a date with a
 * time is a one-shot, anything else a 5-field expression the server checks (spec: What a subject
 * carries > board - a schedule is exactly one of a 5-field cron expression or one instant).
 */
export type When =
  | { ok: true; schedule: string | null; run_once_at: string | null }
  | { ok: false; why: string };

/** A date and a time with no offset, as a person types it (read in this browser's local time). */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** Any text that starts with a date: meant as an instant, whatever follows. */
const DATED = /^\d{4}-\d{2}-\d{2}/;

/**
 * Reads the box. A local date-time becomes its instant; one the calendar does not have
 * (2027-02-30, 25:00) is refused here in words, because `new Date` would roll it over to
 * another day or throw. A dated text with an offset, or any other dated text, goes to the server
 * as typed, whose refusal names it; anything undated is the expression.
 */
export function readWhen(text: string): When {
  const at = text.trim();
  if (!DATED.test(at)) return { ok: true, schedule: at, run_once_at: null };
  const local = LOCAL.exec(at);
  if (!local) return { ok: true, schedule: null, run_once_at: at };
  const [y, mo, d, h, mi, s] = local.slice(1).map((n) => Number(n ?? 0));
  const when = new Date(y, mo - 1, d, h, mi, s);
  const same = when.getFullYear() === y && when.getMonth() === mo - 1 && when.getDate() === d &&
    when.getHours() === h && when.getMinutes() === mi && when.getSeconds() === s;
  if (!same) {
    return {
      ok: false,
      why: `\`${at}\` is not a date and time on the calendar (like 2027-01-01T09:00)`,
    };
  }
  return { ok: true, schedule: null, run_once_at: when.toISOString() };
}
