/**
 * Walking the session pool: every `<config>/projects/**\/*.jsonl` under each config dir,
 * subagent transcripts (`<slug>/<session>/subagents/agent-*.jsonl`) included.
 * spec: Subjects > usage ("a scan of the session-JSONL pool ... on the ask").
 *
 * Incremental: a file whose size and mtime match the last scan is not read again; its parsed
 * records are kept in memory. A file that grew from where its last read ended on a whole line
 * (the CLI appended a turn) is read on from there (read_end.ts). A file that vanished is
 * forgotten.
 */
import { join, relative, sep } from "node:path";
import { type PackedRead, packRead } from "./packed.ts";
import type { TranscriptRead } from "./transcript.ts";
import { readThreaded } from "./scan_threads.ts";
import { TranscriptBytes } from "./transcript_bytes.ts";

/** One transcript file's contribution to the pool. */
export interface PoolFile {
  path: string;
  /** The project directory name the CLI derived from the session's cwd (`-home-me-ws`). */
  slug: string;
  /** The file's records, packed (packed.ts; `recordsOf` makes them objects): a line that
   * repeats the message before it is not kept, it never counts. */
  packed: PackedRead;
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
  /** Of files_read, those read on from where their last read ended (the CLI appended). */
  files_appended: number;
  /** Files the last scan held whose records this one did not just extend: read whole again,
   * gone, or unreadable now. None: every file held is as it was or has more records after the
   * ones it had (a report can fold only what is new: scanner.ts). */
  files_rewritten: number;
  /** The transcripts' bytes this scan read. */
  bytes_read: number;
}

/** A file of the pool from a whole-line parse's answer (tests, and readers of one file). */
export function poolFile(path: string, slug: string, read: TranscriptRead): PoolFile {
  return { path, slug, packed: packRead(read), skipped: read.skipped };
}

interface Cached {
  size: number;
  mtime: number;
  file: PoolFile;
}

const READ_CONCURRENCY = 4;
/** A first scan this large is spread over threads (one per core, the server's thread left to
 * serve); a small one is not worth a thread's start. */
const THREADED_BYTES = 16 << 20;
const MAX_THREADS = 8;

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

  readonly #threadedBytes: number;

  readonly #reader: URL | undefined;

  /**
   * `configDirs`: CLI config dirs (each holding `projects/`); duplicates are scanned once.
   * `threadedBytes`: how much a scan must read before it spreads over threads (tests lower it).
   * `reader`: the reader threads' module (scan_threads.ts READER unless a bench names another).
   */
  constructor(configDirs: string[], opts: { threadedBytes?: number; reader?: URL } = {}) {
    this.#configDirs = [...new Set(configDirs)];
    this.#threadedBytes = opts.threadedBytes ?? THREADED_BYTES;
    this.#reader = opts.reader;
  }

  #inflight: Promise<PoolScan> | null = null;

  /**
   * Walk the pool, read what changed, and answer every file's records. A call made while a
   * scan runs shares that scan's answer rather than reading the same files twice.
   * `ordered`: when the scan reads any file, it is handed every file of the pool in path order
   * as soon as that file and all before it are in (a report folds them while reading goes on);
   * a scan that reads nothing, or shares another's, calls it for none.
   */
  scan(ordered?: (file: PoolFile) => void): Promise<PoolScan> {
    this.#inflight ??= this.#scan(ordered).finally(() => this.#inflight = null);
    return this.#inflight;
  }

  async #scan(ordered?: (file: PoolFile) => void): Promise<PoolScan> {
    const unreadable: PoolScan["unreadable"] = [];
    const found = new Map<string, { slug: string; size: number; mtime: number }>();
    const roots = new Set<string>();
    for (const dir of this.#configDirs) {
      const root = join(dir, "projects");
      let real: string;
      try {
        real = Deno.realPathSync(root);
      } catch (err) {
        // A config dir with no sessions yet has no projects/: not a failure.
        if (!(err instanceof Deno.errors.NotFound)) unreadable.push(failure(root, err));
        continue;
      }
      if (roots.has(real)) continue;
      roots.add(real);
      walk(root, root, found, unreadable);
    }

    let filesRead = 0, filesReused = 0, filesAppended = 0, filesRewritten = 0, bytesRead = 0;
    const toRead: string[] = [];
    // A file that grew from where its last read ended on a whole line is read on from there.
    const grown = new Map<string, PackedRead>();
    for (const [path, seen] of found) {
      const held = this.#cache.get(path);
      if (held && held.size === seen.size && held.mtime === seen.mtime) {
        filesReused++;
        continue;
      }
      const end = held?.file.packed.end;
      if (end && seen.size >= end.offset) grown.set(path, held.file.packed);
      else toRead.push(path);
    }
    for (const path of this.#cache.keys()) {
      if (found.has(path)) continue;
      this.#cache.delete(path);
      filesRewritten++;
    }

    // Hands `ordered` each file once it and every file before it in path order are in.
    const order = [...found.keys()].sort();
    const pending = new Set([...toRead, ...grown.keys()]);
    let next = 0;
    const deliver = () => {
      if (!ordered || toRead.length + grown.size === 0) return;
      for (; next < order.length && !pending.has(order[next]); next++) {
        const held = found.has(order[next]) ? this.#cache.get(order[next]) : undefined;
        if (held) ordered(held.file);
      }
    };
    const landed = (path: string, read: PackedRead | Error) => {
      const seen = found.get(path)!;
      pending.delete(path);
      const held = this.#cache.has(path);
      if (read instanceof Error) {
        if (held) filesRewritten++;
        this.#cache.delete(path);
        found.delete(path);
        unreadable.push(failure(path, read));
      } else {
        read.models = read.models.map(this.#intern);
        read.cwds = read.cwds.map(this.#intern);
        this.#cache.set(path, {
          size: seen.size,
          mtime: seen.mtime,
          file: { path, slug: seen.slug, packed: read, skipped: read.skipped },
        });
        filesRead++;
        bytesRead += read.readBytes ?? seen.size;
        if ((read.from ?? 0) > 0) filesAppended++;
        else if (held) filesRewritten++;
      }
      deliver();
    };
    deliver();
    const bytes = toRead.reduce((n, p) => n + found.get(p)!.size, 0);
    const threads = Math.min(MAX_THREADS, navigator.hardwareConcurrency ?? 1);
    const here = [...grown.keys()];
    if (bytes >= this.#threadedBytes && threads > 1) {
      await readThreaded(toRead.sort(), threads, landed, this.#reader);
    } else here.push(...toRead);
    const queue = here.values();
    // A reader (its WebAssembly memory: one read's worth) only for files there are.
    const reader = async () => {
      let bytes: TranscriptBytes | null = null;
      for (const path of queue) {
        bytes ??= new TranscriptBytes(this.#intern);
        landed(path, await bytes.readPacked(path, grown.get(path)).catch(asError));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, here.length) }, reader));

    const files = order.filter((p) => found.has(p)).map((p) => this.#cache.get(p)!.file);
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
      files_appended: filesAppended,
      files_rewritten: filesRewritten,
      bytes_read: bytesRead,
    };
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * The stat walk, synchronous: a rescan with nothing changed is this walk alone (under
 * 50 ms), and one awaited stat per file cost more in round trips than the stats themselves
 * (a 388-file pool: ~45-90 ms awaited on a loaded machine, a few ms in one go).
 */
function walk(
  root: string,
  dir: string,
  found: Map<string, { slug: string; size: number; mtime: number }>,
  unreadable: PoolScan["unreadable"],
): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (err) {
    unreadable.push(failure(dir, err));
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // Symlinked directories are not followed: a link back up the tree would never end.
    if (entry.isDirectory) {
      walk(root, path, found, unreadable);
      continue;
    }
    if (!entry.name.endsWith(".jsonl")) continue;
    try {
      const info = Deno.statSync(path);
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
