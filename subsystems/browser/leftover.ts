import { processOf } from "../../server/workspace/seats/procfs.ts";
import { killGroup } from "./launch.ts";

/** Where a leftover's end is recorded (the log). */
type Note = (event: string, fields: Record<string, unknown>) => void;

/**
 * A Chromium an earlier forge left running. Each profile's Chromium leads its own session
 * (launch.ts), so a forge that died without its shutdown (a kill, a crash) leaves it running,
 * holding the profile and its memory. The profile's `SingletonLock` names it (`<host>-<pid>`).
 * It is ended only when that pid is still a Chromium over this very profile (its command line
 * names the profile dir), on this host, and not a child of this forge: a pid the kernel gave to
 * something else, or this forge's own Chromium, is left alone. The seats' process reader reads
 * it (procfs.ts: /proc where Deno may read it, else the `ps` the launcher allows). Answers the pid
 * ended, else null.
 */
export async function endLeftover(userDataDir: string, log: Note): Promise<number | null> {
  let lock: string;
  try {
    lock = await Deno.readLink(`${userDataDir}/SingletonLock`);
  } catch {
    return null; // no lock: no Chromium holds the profile
  }
  const dash = lock.lastIndexOf("-");
  const pid = Number(lock.slice(dash + 1));
  if (dash <= 0 || !Number.isInteger(pid) || pid <= 1) return null;
  if (lock.slice(0, dash) !== hostname()) return null;
  const seen = await processOf(pid);
  if (!seen || seen.parent === Deno.pid) return null;
  if (!` ${seen.command} `.includes(` --user-data-dir=${userDataDir} `)) return null;
  killGroup(pid);
  // The next Chromium over this profile starts only once the old one has let go of it.
  for (let i = 0; i < 40 && await processOf(pid) !== null; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  log("browser_leftover_ended", {
    pid,
    profile: userDataDir,
    why: "a Chromium an earlier forge started was still running over this profile",
  });
  return pid;
}

/** Ends every leftover Chromium over the profiles under `root` (`<root>/<profile>/user-data`). */
export async function endLeftovers(root: string, log: Note): Promise<number[]> {
  const ended: number[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(root));
  } catch {
    return ended; // no browser state yet: nothing was ever started
  }
  for (const entry of entries) {
    if (!entry.isDirectory) continue;
    const pid = await endLeftover(`${root}/${entry.name}/user-data`, log);
    if (pid !== null) ended.push(pid);
  }
  return ended;
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return ""; // not allowed to ask: no lock can be told as this host's, nothing is ended
  }
}
