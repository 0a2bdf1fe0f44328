/**
 * The keeper's disk primitives (docs/state.md): a whole-or-nothing write, the stat that tells a
 * file changed since forge read or wrote it, a damaged file's copy kept aside, and the sweep of a
 * crashed write's temp files. `keeper.ts` holds the contract; this holds the system calls.
 */
import type { Logger } from "../log.ts";

/** The suffix of the keeper's temp files, so a boot can tell them from anything else. */
export const TEMP_SUFFIX = ".keeper-tmp";

/**
 * What forge last saw of a file: enough of its stat to tell it was since replaced (another inode)
 * or edited (another size or modification time), or `missing`. A read records it from a stat
 * taken before the read, so a change that lands during the read still shows as a change.
 */
export type Seen = Pick<Deno.FileInfo, "dev" | "ino" | "size" | "mtime"> | "missing";

/** The file's stat now: `missing` when it is not there, null when it could not be looked at. */
export async function seenNow(path: string): Promise<Seen | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    // The read that follows names a file that cannot be looked at; the probe answers only that.
    return error instanceof Deno.errors.NotFound ? "missing" : null;
  }
}

/** Whether two looks saw the same file: same inode, size and modification time. */
export function sameSeen(a: Seen, b: Seen): boolean {
  if (a === "missing" || b === "missing") return a === b;
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtime?.getTime() === b.mtime?.getTime();
}

/**
 * The SHA-256 of a file's bytes, hex. The stat's inode, size and modification time cannot see a
 * same-size rewrite in place within one tick of the clock the file system stamps (or put back with
 * `touch -d`); the digest of the bytes forge last read or wrote can.
 */
export async function digestOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(sum, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes `bytes` to `path` whole (temp, fsync, rename, fsync of the directory) and answers the
 * stat of what landed, taken on the temp file's own handle: the rename keeps its inode, size and
 * modification time, and no other writer can slip in between. Throws the engine's error; the
 * temp file never outlives a failure.
 */
export async function writeWhole(
  path: string,
  bytes: Uint8Array,
  mode: number | undefined,
  log: Logger,
): Promise<Deno.FileInfo> {
  const dir = dirOf(path);
  const tmp = path + TEMP_SUFFIX;
  let created = false;
  let landed: Deno.FileInfo;
  try {
    await Deno.mkdir(dir, { recursive: true, ...(mode !== undefined ? { mode: 0o700 } : {}) });
    const file = await Deno.open(tmp, {
      write: true,
      create: true,
      truncate: true,
      ...(mode !== undefined ? { mode } : {}),
    });
    created = true;
    try {
      for (let off = 0; off < bytes.length;) off += await file.write(bytes.subarray(off));
      await file.sync();
      landed = await file.stat();
    } finally {
      file.close();
    }
    // Creation masked the mode with the umask; a private file must be exactly as private.
    if (mode !== undefined) await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, path);
    created = false;
  } catch (error) {
    if (created) await removeIfThere(tmp, log);
    throw error;
  }
  // The rename landed the write: a directory that cannot be fsynced does not undo it.
  await syncDir(dir, log);
  return landed;
}

/** Keeps a copy of a damaged file aside as `<name>.corrupt-<time>`; the same bytes once. */
export async function keepAside(path: string, at: number, log: Logger): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    log.error("state_aside_failed", { path, error });
    return null;
  }
  const name = path.slice(dirOf(path).length + 1);
  try {
    for await (const e of Deno.readDir(dirOf(path))) {
      if (!e.isFile || !e.name.startsWith(`${name}.corrupt-`)) continue;
      const seen = `${dirOf(path)}/${e.name}`;
      if (sameBytes(await Deno.readFile(seen), bytes)) return seen;
    }
  } catch (error) {
    // An earlier copy cannot be compared: a second copy costs disk, never data.
    log.warn("state_aside_unlisted", { path, error });
  }
  const stamp = new Date(at).toISOString().replaceAll(":", "-");
  for (let n = 1; n <= 100; n++) {
    // Two damages in one millisecond get a counter rather than one writing over the other.
    const aside = `${path}.corrupt-${stamp}${n > 1 ? `-${n}` : ""}`;
    try {
      await Deno.writeFile(aside, bytes, { createNew: true });
      return aside;
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) continue;
      log.error("state_aside_failed", { path, aside, error });
      return null;
    }
  }
  return null;
}

/**
 * Removes the keeper's temp files a crashed write left anywhere under `dir` (the state dir at
 * boot), skipping folders forge does not keep (worktrees, browser profiles). Answers how many.
 */
export async function sweepTemps(dir: string, log: Logger, skip: readonly string[] = []) {
  let removed = 0;
  const walk = async (at: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(at));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) log.warn("state_sweep_failed", { at, error });
      return;
    }
    for (const e of entries) {
      const path = `${at}/${e.name}`;
      if (e.isDirectory && !skip.includes(path)) await walk(path);
      else if (e.isFile && e.name.endsWith(TEMP_SUFFIX) && await removeIfThere(path, log)) {
        removed++;
      }
    }
  };
  await walk(dir);
  if (removed > 0) log.info("state_temps_swept", { dir, removed });
  return removed;
}

/** Removes `path`; false when it was not there (or could not go, which is logged). */
export async function removeIfThere(path: string, log: Logger): Promise<boolean> {
  try {
    await Deno.remove(path);
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) log.warn("state_temp_unremoved", { path, error });
    return false;
  }
}

function dirOf(path: string): string {
  return path.replace(/\/[^/]*$/, "") || "/";
}

async function syncDir(dir: string, log: Logger): Promise<void> {
  try {
    using handle = await Deno.open(dir, { read: true });
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
    log.debug("state_dir_sync_refused", { dir, error });
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
