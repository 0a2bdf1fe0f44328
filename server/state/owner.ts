/**
 * One forge to a state dir. A second forge started over the same config would take the first's
 * seats for a dead run's orphans and end them (seats/orphans.ts), sweep its temp files while it
 * writes them, and write the same state files as it: it refuses at boot instead, naming the
 * forge that holds the dir. The hold is an advisory lock (flock) on `<state>/forge.lock`, which
 * the kernel lets go when its process ends however it ends, so a killed forge leaves no stale
 * claim; the file holds the holder's pid only for the refusal's words, and is never removed.
 */
export class StateOwner {
  private constructor(private readonly file: Deno.FsFile) {}

  /** Takes the dir, or throws forge's sentence naming the forge that holds it. */
  static async take(stateDir: string): Promise<StateOwner> {
    const path = `${stateDir}/forge.lock`;
    const file = await Deno.open(path, { read: true, write: true, create: true });
    let held: boolean;
    try {
      held = !(await file.tryLock(true));
    } catch (err) {
      file.close();
      throw new Error(`forge could not lock its state dir ${stateDir}`, { cause: err });
    }
    if (held) {
      file.close();
      const pid = await holderPid(path);
      const who = /^\d+$/.test(pid) ? `another forge (pid ${pid})` : "another forge";
      throw new Error(
        `${who} runs over ${stateDir}: stop it, or start this one with --config naming ` +
          `another config dir`,
      );
    }
    await file.truncate(0);
    const text = new TextEncoder().encode(`${Deno.pid}\n`);
    for (let at = 0; at < text.length;) at += await file.write(text.subarray(at));
    return new StateOwner(file);
  }

  /** Lets the dir go (shutdown, or a boot that failed after taking it). */
  release(): void {
    try {
      this.file.close(); // closing the descriptor drops its lock
    } catch { /* already released */ }
  }
}

/** The holder's pid as it wrote it, or "" when its file cannot be read. */
async function holderPid(path: string): Promise<string> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch {
    return ""; // the refusal is said without the pid
  }
}
