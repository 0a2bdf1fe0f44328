import type { WireObject } from "../../../protocol/mod.ts";

/**
 * Reading /proc: the parent of every process, a process's start time (to tell a pid from its
 * reuse) and command line, and a process tree as the session subject's `processes` carries it.
 * spec: session > processes. Every read tolerates a process vanishing under it.
 */

/** One process of a tree. */
export interface ProcRow {
  pid: number;
  ppid: number;
  command: string;
}

/** pid -> parent pid, for every process /proc lists now. */
export function parentTable(): Map<number, number> {
  const table = new Map<number, number>();
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch {
    return table;
  }
  for (const entry of entries) {
    const c = entry.name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const fields = statFields(Number(entry.name));
    if (fields) table.set(Number(entry.name), Number(fields[1]));
  }
  return table;
}

/** The fields of /proc/<pid>/stat after the command (`fields[0]` is the state, [1] the ppid,
 * [19] the start time in clock ticks), or null when the process is gone. */
export function statFields(pid: number): string[] | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** The process's start time since boot (clock ticks): with the pid, its identity. */
export function startTime(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/** The command line, arguments joined by spaces and cut at `max` characters; "" when gone. */
export function commandLine(pid: number, max = 200): string {
  try {
    const raw = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    return raw.replaceAll("\0", " ").trim().slice(0, max);
  } catch {
    return "";
  }
}

/** Every descendant of `root` in `table`, parents before children. */
export function descendants(table: Map<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of table) {
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

/** The tree under (and including) `root` as the `processes` snapshot: `{pid, processes}`. */
export function processTree(table: Map<number, number>, root: number): WireObject {
  const rows: ProcRow[] = [root, ...descendants(table, root)].map((pid) => ({
    pid,
    ppid: table.get(pid) ?? 0,
    command: commandLine(pid),
  })).filter((r) => r.command !== "" || r.pid === root);
  return { pid: root, processes: rows as unknown as WireObject[] };
}
