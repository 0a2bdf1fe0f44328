/**
 * Whole-process arms for the benches: a command timed as a process (wall, user and system
 * seconds of it and its children), on a dropped page cache where this machine allows it.
 */

/**
 * Runs `cmd` as a whole process under bash's `time`, the page cache dropped first where this
 * machine lets us: wall, user and system seconds of the process and its children.
 */
export async function timedProcess(cmd: string[], env: Record<string, string>) {
  const cold = await dropCaches();
  const out = await new Deno.Command("bash", {
    args: ["-c", 'TIMEFORMAT="@time %R %U %S"; time "$@"', "bash", ...cmd],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd.slice(0, 2).join(" ")} failed: ${err}`);
  const m = err.match(/@time ([\d.]+) ([\d.]+) ([\d.]+)/);
  if (!m) throw new Error(`no timing in: ${err.slice(-400)}`);
  const [wall, user, sys] = [m[1], m[2], m[3]].map(Number);
  return { wall, cpu: user + sys, cold, stdout: new TextDecoder().decode(out.stdout) };
}

/** Drops the page cache (root only); false when not permitted, and the run says it was warm. */
export async function dropCaches(): Promise<boolean> {
  try {
    await new Deno.Command("sync").output();
    await Deno.writeTextFile("/proc/sys/vm/drop_caches", "3");
    return true;
  } catch {
    return false;
  }
}

/**
 * The disk's floor for a cold scan: every file under `dir` read from a dropped page cache by
 * `readers` parallel `cat`s into /dev/null, nothing parsed. No reader of those files can beat its
 * wall time; its CPU is the kernel's share of reading them cold.
 */
export function coldRead(dir: string, readers: number) {
  const script = `find "$0" -type f -print0 | xargs -0 -n 8 -P ${readers} cat > /dev/null`;
  return timedProcess(["bash", "-c", script, dir], { PATH: Deno.env.get("PATH") ?? "" });
}

/**
 * The floor for a cold scan that must find its lines: every file under `dir` read from a dropped
 * page cache by `readers` parallel `grep -cF` of `needle`, which looks at every byte for it
 * (glibc's memchr-driven search) and parses nothing. A reader that finds the lines carrying
 * `needle` pays at least this on top of the read floor's kernel time.
 */
export function coldSearch(dir: string, readers: number, needle: string) {
  // The counts go through a pipe, not straight to /dev/null: GNU grep writing to /dev/null
  // stops each file at its first match (as with -q), which reads a few KiB of a file, not all.
  // grep exits 1 for a batch with no match: not a failure of the arm.
  const script = `find "$0" -type f -print0 | xargs -0 -n 8 -P ${readers} grep -cF -e "$1" ` +
    `| cat > /dev/null; true`;
  return timedProcess(["bash", "-c", script, dir, needle], {
    PATH: Deno.env.get("PATH") ?? "",
    LC_ALL: "C",
  });
}
