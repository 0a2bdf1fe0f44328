/**
 * Probes of what a path names: a file, a directory, or neither. A path that is absent, or that
 * forge may not see, answers false: callers ask to decide (resume a session in its folder, reuse
 * a worktree, find a binary), and absence is their answer, never an error. Symlinks are followed.
 */

/** Whether `path` is a file forge can see. */
export async function isFile(path: string): Promise<boolean> {
  return (await statOf(path))?.isFile ?? false;
}

/** Whether `path` is a directory forge can see. */
export async function isDir(path: string): Promise<boolean> {
  return (await statOf(path))?.isDirectory ?? false;
}

/** `isFile` for a caller that cannot wait (a PATH walk, a spawn's error). */
export function isFileSync(path: string): boolean {
  return statSyncOf(path)?.isFile ?? false;
}

/** `isDir` for a caller that cannot wait (a spawn's error). */
export function isDirSync(path: string): boolean {
  return statSyncOf(path)?.isDirectory ?? false;
}

/** Whether `path` is a file forge could run: some execute bit set (a PATH walk's test). Where
 * the platform gives no mode, a file counts. */
export function isExecutableSync(path: string): boolean {
  const info = statSyncOf(path);
  return info !== null && info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
}

/**
 * The first `<dir>/<name>` along `dirs` (a PATH's directories, empty ones skipped) that `is`
 * accepts, or null: the one a spawn of the bare `name` would run.
 */
export function firstOnPath(
  name: string,
  dirs: readonly string[],
  is: (path: string) => boolean = isFileSync,
): string | null {
  for (const dir of dirs) if (dir && is(`${dir}/${name}`)) return `${dir}/${name}`;
  return null;
}

async function statOf(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch {
    // A probe: nothing there (or nothing forge may see) is neither a file nor a directory.
    return null;
  }
}

function statSyncOf(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    // As above, for the synchronous probe.
    return null;
  }
}
