/**
 * A process's CPU and memory as the benches read them from /proc, and forge as its own process.
 */
import { ForgeClient } from "../../client_lib.ts";
import { forgeArgs, listening } from "../arms/seat_fixtures.ts";
import { processNs } from "./proc_cpu.ts";
export { processNs };

const REPO = new URL("../../../", import.meta.url).pathname;

/**
 * The process's own CPU time in nanoseconds: the sum of its threads' scheduler run times
 * (/proc/<pid>/task/<tid>/schedstat, the scheduler's own ns clock - getrusage grade, not the
 * 10 ms ticks /proc/<pid>/stat reports). A thread that exits inside a window takes its time
 * with it, so a window can only read low, never high.
 */
export function threadsNs(pid: number): number {
  let sum = 0;
  for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/schedstat`).split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return sum;
}

/** CPU of the process's children it has waited for (git, ...), in ns: 10 ms ticks. */
export function childrenNs(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10e6;
}

/** The process's own CPU and its reaped children's, ns. */
export function treeNs(pid: number): number {
  return threadsNs(pid) + childrenNs(pid);
}

/** Resident set size, MiB. */
export function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** `cpu(pid)` spent while `work` runs, and the wall time it took. */
export async function cpuOver<T>(
  pid: number,
  work: () => Promise<T>,
  cpu: (pid: number) => number = treeNs,
): Promise<{ cpuNs: number; wallMs: number; result: T }> {
  const before = cpu(pid);
  const t0 = performance.now();
  const result = await work();
  return { cpuNs: cpu(pid) - before, wallMs: performance.now() - t0, result };
}

/** forge as its own process on `config` (`deno run -A main.ts`), and a client of it. */
export async function forgeProcess(
  config: string,
  opts: { env?: Record<string, string>; v8?: string | null } = {},
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: forgeArgs(config, { v8: opts.v8 }),
    cwd: REPO,
    stdout: "piped",
    stderr: "null",
    env: opts.env,
  }).spawn();
  const port = await listening(child.stdout);
  const url = `ws://127.0.0.1:${port}/socket`;
  const client = await ForgeClient.connect(url);
  await client.next((m) => m.kind === "settings");
  return {
    child,
    pid: child.pid,
    url,
    client,
    async stop() {
      await client.close().catch(() => {});
      child.kill("SIGTERM");
      await child.status;
    },
  };
}
