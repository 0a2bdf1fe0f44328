/**
 * What the terminal reads from Linux's /proc: a process's stat line, the members of a session,
 * and the session kill that leaves nothing behind.
 *
 * Why a session and not a process group (measured): with job control every `&` job gets
 * its own process group, so a group kill misses background jobs; every process the shell started
 * keeps the shell's session id unless it called setsid() itself.
 */

/** The fields of /proc/<pid>/stat the terminal uses (proc(5) numbering in comments). */
export interface ProcStat {
  pid: number;
  /** (2) the executable's name, at most 15 bytes. */
  comm: string;
  /** (3) R, S, D, Z, T, ... */
  state: string;
  /** (4) */
  ppid: number;
  /** (5) process group id */
  pgrp: number;
  /** (6) session id */
  session: number;
  /** (8) foreground process group of the controlling terminal, -1 when none */
  tpgid: number;
}

/** Parses one stat line; null when it is not one (the comm may hold spaces and parentheses). */
export function parseStat(line: string): ProcStat | null {
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const rest = line.slice(close + 2).split(" ");
  if (rest.length < 6) return null;
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    state: rest[0],
    ppid: Number(rest[1]),
    pgrp: Number(rest[2]),
    session: Number(rest[3]),
    tpgid: Number(rest[5]),
  };
}

/**
 * Where process facts come from. Deno 2.9.6 refuses every /proc read without --allow-all, so
 * under the launcher's scoped permissions the terminal reads `ps` instead (--allow-run=ps); with
 * /proc readable (tests, -A) it reads /proc directly. Probed once.
 */
let source: "proc" | "ps" | undefined;
function procSource(): "proc" | "ps" {
  if (source) return source;
  try {
    Deno.readTextFileSync("/proc/self/stat");
    source = "proc";
  } catch {
    // No /proc here: `ps` is the source, and the probe says so.
    source = "ps";
  }
  return source;
}

/** For tests: read through `ps` even where /proc is readable. */
export function useProcSource(which: "proc" | "ps"): void {
  source = which;
}

const PS_FIELDS = "pid=,ppid=,pgid=,sid=,tpgid=,stat=,comm=";

/** Parses `ps -o pid=,ppid=,pgid=,sid=,tpgid=,stat=,comm=` lines. */
export function parsePs(text: string): ProcStat[] {
  const out: ProcStat[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(-?\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    out.push({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgrp: Number(m[3]),
      session: Number(m[4]),
      tpgid: Number(m[5]),
      state: m[6][0],
      comm: m[7],
    });
  }
  return out;
}

async function ps(args: string[]): Promise<ProcStat[]> {
  const out = await new Deno.Command("ps", {
    args: [...args, "-o", PS_FIELDS],
    stdout: "piped",
    stderr: "null",
  })
    .output();
  return parsePs(new TextDecoder().decode(out.stdout));
}

/** A process's stat; null when the process is gone (or never was). */
export async function readStat(pid: number): Promise<ProcStat | null> {
  if (procSource() === "ps") return (await ps(["-p", String(pid)]))[0] ?? null;
  try {
    return parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    // The process ended under the read: nothing to report for it.
    return null;
  }
}

/**
 * Every live process whose session id is `sid`. Zombies are left out: they have already died
 * and hold no resources but a pid, which their parent (or init) reaps.
 */
export async function sessionMembers(sid: number): Promise<ProcStat[]> {
  const live = (stat: ProcStat | null) =>
    stat !== null && stat.session === sid && stat.state !== "Z" && stat.state !== "X";
  if (procSource() === "ps") return (await ps(["-e"])).filter(live);
  const found: ProcStat[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await readStat(Number(entry.name));
    if (live(stat)) found.push(stat!);
  }
  return found;
}

/** SIGKILL through Deno.kill, else the `kill` binary (a scoped --allow-run names it). */
async function kill(pid: number): Promise<void> {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      await new Deno.Command("kill", {
        args: ["-KILL", String(pid)],
        stdout: "null",
        stderr: "null",
      }).output();
    }
    // Anything else is ESRCH: it died between the walk and the signal.
  }
}

/**
 * SIGKILLs every live member of session `sid` and waits, polling /proc with a deadline, until
 * none is left. Returns the pids it signalled. Rejects naming the survivors when the deadline
 * passes, because a close that leaves a process behind must not report success.
 */
export async function killSession(sid: number, deadlineMs = 3000): Promise<number[]> {
  const signalled = new Set<number>();
  const end = performance.now() + deadlineMs;
  for (;;) {
    const members = await sessionMembers(sid);
    if (members.length === 0) return [...signalled];
    if (performance.now() > end) {
      const names = members.map((m) => `${m.pid} (${m.comm})`).join(", ");
      throw new Error(`terminal session ${sid}: still alive after SIGKILL: ${names}`);
    }
    for (const member of members) {
      // A process may fork between the walk and the kill; the next pass catches its child.
      await kill(member.pid);
      signalled.add(member.pid);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
