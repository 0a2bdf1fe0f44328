/**
 * A process's own CPU as /proc/<pid>/stat counts it, with no other import: the usage arms run it in
 * processes whose start must stay a small program's (support/cpu.ts re-exports it).
 */

/** The process's own user and system time, every thread it ever ran included, ns: 10 ms ticks. */
export function processNs(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10e6;
}
