/**
 * Walking the session pool: every `<config>/projects/**\/*.jsonl` under each config dir,
 * subagent transcripts (`<slug>/<session>/subagents/agent-*.jsonl`) included.
 * spec: Subjects > usage ("a scan of the session-JSONL pool ... on the ask").
 *
 * Incremental: a file whose size and mtime match the last scan is not read again; its parsed
 * records are kept in memory. A file that vanished is forgotten.
 */
import { join, relative, sep } from "node:path";
import { readTranscript, type UsageRecord } from "./transcript.ts";

/** One transcript file's contribution to the pool. */
export interface PoolFile {
  path: string;
  /** The project directory name the CLI derived from the session's cwd (`-home-me-ws`). */
  slug: string;
  records: UsageRecord[];
  skipped: number;
}

/** The pool as of one scan. */
export interface PoolScan {
  /** Every transcript found, in path order. */
  files: PoolFile[];
  /** Lines that failed to parse, over the whole pool (see `skipped_files`). */
  skipped_lines: number;
  skipped_files: { path: string; lines: number }[];
  /** Files or directories that could not be read, with the reason; the scan went on. */
  unreadable: { path: string; reason: string }[];
  files_read: number;
  files_reused: number;
}

interface Cached {
  size: number;
  mtime: number;
  file: PoolFile;
}

const READ_CONCURRENCY = 4;

/** Scans a fixed set of config dirs, keeping what it parsed between scans. */
export class PoolScanner {
  readonly #configDirs: string[];
  readonly #cache = new Map<string, Cached>();
  readonly #strings = new Map<string, string>();
  readonly #intern = (s: string): string => {
    const held = this.#strings.get(s);
    if (held !== undefined) return held;
    this.#strings.set(s, s);
    return s;
  };

  /** `configDirs`: CLI config dirs (each holding `projects/`); duplicates are scanned once. */
  constructor(configDirs: string[]) {
    this.#configDirs = [...new Set(configDirs)];
  }

  #inflight: Promise<PoolScan> | null = null;

  /** Walk the pool, read what changed, and answer every file's records. A call made while a
   * scan runs shares that scan's answer rather than reading the same files twice. */
  scan(): Promise<PoolScan> {
    this.#inflight ??= this.#scan().finally(() => this.#inflight = null);
    return this.#inflight;
  }

  async #scan(): Promise<PoolScan> {
    const unreadable: PoolScan["unreadable"] = [];
    const found = new Map<string, { slug: string; size: number; mtime: number }>();
    const roots = new Set<string>();
    for (const dir of this.#configDirs) {
      const root = join(dir, "projects");
      let real: string;
      try {
        real = await Deno.realPath(root);
      } catch (err) {
        // A config dir with no sessions yet has no projects/: not a failure.
        if (!(err instanceof Deno.errors.NotFound)) unreadable.push(failure(root, err));
        continue;
      }
      if (roots.has(real)) continue;
      roots.add(real);
      await walk(root, root, found, unreadable);
    }

    let filesRead = 0;
    let filesReused = 0;
    const toRead: string[] = [];
    for (const [path, seen] of found) {
      const held = this.#cache.get(path);
      if (held && held.size === seen.size && held.mtime === seen.mtime) filesReused++;
      else toRead.push(path);
    }
    for (const path of this.#cache.keys()) if (!found.has(path)) this.#cache.delete(path);

    const queue = toRead.values();
    const worker = async () => {
      for (const path of queue) {
        const seen = found.get(path)!;
        try {
          const read = await readTranscript(path, this.#intern);
          const file = { path, slug: seen.slug, ...read };
          this.#cache.set(path, { size: seen.size, mtime: seen.mtime, file });
          filesRead++;
        } catch (err) {
          this.#cache.delete(path);
          found.delete(path);
          unreadable.push(failure(path, err));
        }
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));

    const files = [...found.keys()].sort().map((p) => this.#cache.get(p)!.file);
    const skipped_files = files.filter((f) => f.skipped > 0).map((f) => ({
      path: f.path,
      lines: f.skipped,
    }));
    return {
      files,
      skipped_lines: skipped_files.reduce((n, f) => n + f.lines, 0),
      skipped_files,
      unreadable,
      files_read: filesRead,
      files_reused: filesReused,
    };
  }
}

async function walk(
  root: string,
  dir: string,
  found: Map<string, { slug: string; size: number; mtime: number }>,
  unreadable: PoolScan["unreadable"],
): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    unreadable.push(failure(dir, err));
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symlinked directories are not followed: a link back up the tree would never end.
    if (entry.isDirectory) {
      await walk(root, path, found, unreadable);
      continue;
    }
    if (!entry.name.endsWith(".jsonl")) continue;
    try {
      const info = await Deno.stat(path);
      if (!info.isFile) continue;
      const slug = relative(root, path).split(sep)[0];
      found.set(path, { slug, size: info.size, mtime: info.mtime?.getTime() ?? -1 });
    } catch (err) {
      unreadable.push(failure(path, err));
    }
  }
}

function failure(path: string, err: unknown): { path: string; reason: string } {
  return { path, reason: err instanceof Error ? err.message : String(err) };
}
