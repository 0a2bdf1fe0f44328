/**
 * A notice's bold head and the reason drawn after it. The server's `why` already leads with the
 * message it refused (`cron_create: schedule: ...`; spec: What a client receives > error), so
 * that lead is dropped rather than drawn twice (`cron_create: cron_create: ...`). A command the
 * core refused comes as `what: "dispatch"` (the original's value) with the command leading its
 * `why`: the command is the head then, not the word "dispatch".
 */
export function noticeParts(what: string, why: string): { head: string; why: string } {
  const lead = /^([a-z][a-z0-9_]*): /.exec(why);
  if (what === "dispatch" && lead) return { head: lead[1], why: why.slice(lead[0].length) };
  return { head: what, why: noticeWhy(what, why) };
}

/** The reason a notice draws after its bold `what` (see `noticeParts`). */
export function noticeWhy(what: string, why: string): string {
  return why.startsWith(`${what}: `) ? why.slice(what.length + 2) : why;
}
