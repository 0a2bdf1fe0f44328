/**
 * The process table read from /proc files (procfs.ts picks this source when /proc is readable):
 * the machine's whole table, or only the trees under some roots. Every read tolerates a process
 * vanishing under it.
 */

/** pid -> parent pid, and each process's command line, name and resident bytes (read lazily
 * from /proc). */
export interface ProcTable {
  parent: Map<number, number>;
  command(pid: number): string;
  name(pid: number): string;
  memoryBytes(pid: number): number;
}

/** The fields of /proc/<pid>/stat after the command (`[0]` state, `[1]` ppid, `[19]` start
 * time in clock ticks), or null when the process is gone. */
export function statFields(pid: number): string[] | null {
  return afterCommand(readSync(`/proc/${pid}/stat`));
}

/** Every process on the machine, each row's fields read when asked. */
export function procTable(): ProcTable {
  const parent = new Map<number, number>();
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      const c = entry.name.charCodeAt(0);
      if (c < 48 || c > 57) continue;
      const fields = statFields(Number(entry.name));
      if (fields) parent.set(Number(entry.name), Number(fields[1]));
    }
  } catch { /* an empty table: nothing walks */ }
  return {
    parent,
    command: (pid) => commandOf(readSync(`/proc/${pid}/cmdline`)),
    name: (pid) => nameOf(readSync(`/proc/${pid}/comm`)),
    memoryBytes: (pid) => residentBytes(readSync(`/proc/${pid}/statm`)),
  };
}

/**
 * The trees under `roots` without reading the machine's whole table: each process's children
 * come from /proc/<pid>/task/<tid>/children (a thread lists the children it forked), and every
 * file is read with an async op, so the reads run off the server's thread and a CLI line is never
 * held behind them.
 *
 * Why: the seat walk runs once a second while a seat is watched (spec: session > processes), and
 * the whole table was one synchronous read of every /proc/<pid>/stat on the server's thread,
 * during which no socket frame could leave: tools/bench/seat_walk.ts measured 2.0 ms a walk with
 * 73 processes on the machine and 14.2 ms with 573, against 1.0 ms for a seat-like tree alone.
 *
 * Null when this kernel has no `children` files (CONFIG_PROC_CHILDREN): read the whole table.
 * The table answers for the roots and their descendants only.
 */
export async function readSubtrees(roots: number[]): Promise<ProcTable | null> {
  if (!(await hasChildrenFiles())) return null;
  const parent = new Map<number, number>();
  const rows = new Map<number, Row>();
  // The roots' own parents, so a root's row names its parent as the whole table's would.
  const rootStats = await Promise.all(roots.map((root) => read(`/proc/${root}/stat`)));
  roots.forEach((root, i) => {
    const fields = afterCommand(rootStats[i]);
    if (fields) parent.set(root, Number(fields[1]));
  });
  let level = roots.filter((pid, i) => roots.indexOf(pid) === i);
  while (level.length > 0) {
    const found = await Promise.all(level.map((pid) => Promise.all([childrenOf(pid), rowOf(pid)])));
    const next: number[] = [];
    // Set in level order with each process's children ascending, as the whole table (read in
    // /proc's pid order) lists them: a walk that finds the same tree yields the same rows.
    level.forEach((pid, i) => {
      const [children, row] = found[i];
      rows.set(pid, row);
      for (const child of children) {
        if (rows.has(child)) continue;
        parent.set(child, pid);
        next.push(child);
      }
    });
    level = next;
  }
  return {
    parent,
    command: (pid) => rows.get(pid)?.command ?? "",
    name: (pid) => rows.get(pid)?.name ?? "",
    memoryBytes: (pid) => rows.get(pid)?.memoryBytes ?? 0,
  };
}

/** `pid`'s parent and its whole command line (arguments joined by spaces, never cut short), or
 * null when it is gone. */
export async function parentAndCommand(
  pid: number,
): Promise<{ parent: number; command: string } | null> {
  const [stat, cmdline] = await Promise.all([
    read(`/proc/${pid}/stat`),
    read(`/proc/${pid}/cmdline`),
  ]);
  const fields = afterCommand(stat);
  if (!fields || cmdline === null) return null;
  return { parent: Number(fields[1]), command: cmdline.replaceAll("\0", " ").trim() };
}

interface Row {
  command: string;
  name: string;
  memoryBytes: number;
}

async function rowOf(pid: number): Promise<Row> {
  const [cmdline, comm, statm] = await Promise.all(
    ["cmdline", "comm", "statm"].map((file) => read(`/proc/${pid}/${file}`)),
  );
  return { command: commandOf(cmdline), name: nameOf(comm), memoryBytes: residentBytes(statm) };
}

/** `pid`'s children, ascending: every thread's `children` file (a thread lists its own forks). */
async function childrenOf(pid: number): Promise<number[]> {
  const tids: string[] = [];
  try {
    for await (const entry of Deno.readDir(`/proc/${pid}/task`)) tids.push(entry.name);
  } catch {
    return []; // the process ended
  }
  const lists = await Promise.all(tids.map((tid) => read(`/proc/${pid}/task/${tid}/children`)));
  return lists.flatMap((text) => (text ?? "").split(" ").filter(Boolean).map(Number))
    .sort((a, b) => a - b);
}

let childrenFiles: boolean | undefined;

async function hasChildrenFiles(): Promise<boolean> {
  childrenFiles ??= await read(`/proc/self/task/${Deno.pid}/children`) !== null;
  return childrenFiles;
}

const commandOf = (cmdline: string | null) =>
  (cmdline ?? "").replaceAll("\0", " ").trim().slice(0, 200);
const nameOf = (comm: string | null) => (comm ?? "").trim();

/** statm's second field is the resident pages, 4 KiB each on the Linux targets forge runs on. */
function residentBytes(statm: string | null): number {
  const pages = Number(statm?.split(" ")[1]);
  return Number.isFinite(pages) ? pages * 4096 : 0;
}

function afterCommand(stat: string | null): string[] | null {
  return stat === null ? null : stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** A /proc file's text, or null when its process (or thread) is gone. */
function readSync(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    // A process that ended between the listing and the read: nothing to report for it.
    return null;
  }
}

async function read(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    // As above: the process ended under the read.
    return null;
  }
}
