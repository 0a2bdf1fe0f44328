/**
 * The reason a notice draws after its bold `what`. The server's `why` already leads with the
 * message it refused (`cron_create: schedule: ...`; spec: What a client receives > error), so
 * that lead is dropped rather than drawn twice (`cron_create: cron_create: ...`).
 */
export function noticeWhy(what: string, why: string): string {
  return why.startsWith(`${what}: `) ? why.slice(what.length + 2) : why;
}
