import type { ProcessSnapshot } from "../../../protocol/mod.ts";
import {
  parentAndCommand,
  type ProcTable,
  procTable,
  readSubtrees,
  statFields,
} from "./proc_files.ts";

export type { ProcTable };

/**
 * The machine's process table, for the session subject's `processes` (spec: session > processes)
 * and for telling a recorded pid from its reuse (orphans.ts). Read from /proc when this process
 * may read it - Deno 2.9 asks for --allow-all before it opens anything under /proc - else from
 * `ps` when --allow-run names it, else not at all: `probe()` says which and why, and a walk that
 * cannot run is reported once rather than failing a seat. Every read tolerates a process
 * vanishing under it.
 */

export type ProcSource = "proc" | "ps";

let detected: { source: ProcSource | null; why: string } | undefined;

/** Which source the table is read from, or null with the reason none can be. */
export function probe(): { source: ProcSource | null; why: string } {
  if (detected) return detected;
  try {
    Deno.readTextFileSync("/proc/self/stat");
    detected = { source: "proc", why: "/proc is readable" };
  } catch (procErr) {
    const ps = Deno.permissions.querySync({ name: "run", command: "ps" }).state === "granted";
    detected = ps ? { source: "ps", why: "/proc is not readable; ps is allowed" } : {
      source: null,
      why: `/proc is not readable (${(procErr as Error).message}) and --allow-run does not name ps`,
    };
  }
  return detected;
}

/**
 * The whole table now, or null when no source is available. Given `roots`, the table needs to
 * answer only for them and their descendants: from /proc that reads just their trees
 * (proc_files.ts readSubtrees); `ps` lists everything in one run either way.
 */
export async function readTable(roots?: number[]): Promise<ProcTable | null> {
  const { source } = probe();
  if (source === "proc") return (roots && await readSubtrees(roots)) ?? procTable();
  if (source === "ps") return await psTable();
  return null;
}

/** A process's start time (clock ticks from /proc, else `ps`'s lstart): with the pid, its
 * identity. Null when the process is gone or no source is available. */
export async function startTime(pid: number): Promise<string | null> {
  const { source } = probe();
  if (source === "proc") return statFields(pid)?.[19] ?? null;
  if (source !== "ps") return null;
  const out = await run("ps", ["-o", "lstart=", "-p", String(pid)]);
  return out?.trim() || null;
}

/**
 * One process's parent and whole command line (its arguments joined by spaces, never cut short:
 * a caller matches an argument anywhere in it), from /proc, else `ps -ww`. Null when the process
 * is gone or no source is available.
 */
export async function processOf(pid: number): Promise<{ parent: number; command: string } | null> {
  const { source } = probe();
  if (source === "proc") return await parentAndCommand(pid);
  if (source !== "ps") return null;
  const out = await run("ps", ["-ww", "-o", "ppid=,args=", "-p", String(pid)]);
  const m = /^\s*(\d+)\s+(.*)$/.exec((out ?? "").trim());
  return m ? { parent: Number(m[1]), command: m[2] } : null;
}

/** Every descendant of `root`, parents before children. */
export function descendants(table: ProcTable, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of table.parent) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * The tree under (and including) `root` as the `processes` snapshot, in the original's
 * ProcessSnapshot shape (spec: session > processes): `{processes, scanned_at}`, each row `{pid, parent_pid,
 * name, command, memory_bytes}` and `scanned_at` serde's SystemTime; `pid` beside them names the
 * root the walk began at (additive: the CLI's own pid, which a client leads the tree with).
 */
export function processTree(
  table: ProcTable,
  root: number,
  now = Date.now(),
): ProcessSnapshot {
  const rows = [root, ...descendants(table, root)].map((pid) => ({
    pid,
    parent_pid: table.parent.get(pid) ?? 0,
    name: table.name(pid),
    command: table.command(pid),
    memory_bytes: table.memoryBytes(pid),
  })).filter((r) => r.pid === root || r.command !== "");
  return {
    pid: root,
    processes: rows,
    scanned_at: {
      secs_since_epoch: Math.floor(now / 1000),
      nanos_since_epoch: (now % 1000) * 1_000_000,
    },
  };
}

/** What makes a walk news: the tree's shape and commands, not its clock or its memory. */
export function treeShape(snapshot: ProcessSnapshot | null): string {
  const rows = snapshot?.processes ?? [];
  return JSON.stringify(rows.map((r) => [r.pid, r.parent_pid, r.command]));
}

/** Sends a signal: `Deno.kill` when permitted, else the `kill` binary when --allow-run names it.
 * A process already gone counts as done; throws when neither way is permitted. */
export async function signal(pid: number, sig: Deno.Signal): Promise<void> {
  try {
    Deno.kill(pid, sig);
    return;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || /ESRCH/.test((err as Error).message)) return;
    if (!(err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied)) {
      throw err;
    }
  }
  if (Deno.permissions.querySync({ name: "run", command: "kill" }).state !== "granted") {
    throw new Error(`cannot signal ${pid}: neither Deno.kill nor the kill binary is permitted`);
  }
  await run("kill", [`-${sig.replace(/^SIG/, "")}`, String(pid)]);
}

async function psTable(): Promise<ProcTable | null> {
  const out = await run("ps", ["-A", "-o", "pid=,ppid=,rss=,comm=,args="]);
  if (out === null) return null;
  const parent = new Map<number, number>();
  const commands = new Map<number, string>();
  const names = new Map<number, string>();
  const rss = new Map<number, number>();
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!m) continue;
    parent.set(Number(m[1]), Number(m[2]));
    rss.set(Number(m[1]), Number(m[3]) * 1024);
    names.set(Number(m[1]), m[4]);
    commands.set(Number(m[1]), m[5].trim().slice(0, 200));
  }
  return {
    parent,
    command: (pid) => commands.get(pid) ?? "",
    name: (pid) => names.get(pid) ?? "",
    memoryBytes: (pid) => rss.get(pid) ?? 0,
  };
}

async function run(bin: string, args: string[]): Promise<string | null> {
  try {
    const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "null" }).output();
    return new TextDecoder().decode(out.stdout);
  } catch {
    // No `ps` on this machine: the probe falls back, and says which source it used.
    return null;
  }
}
