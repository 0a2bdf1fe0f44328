/**
 * Untracked files, which git's diff does not see (spec: session table, `git` and `diff` rows):
 * their line counts for the worktree stats, within bounds, and their heads for the `diff` row's
 * files. Both depend on the status alone, so a scan reads them while its diff still runs, and
 * from one read of each file where the count reads it whole.
 */
import { FILE_BYTE_CAP } from "./diff_parse.ts";
import type { RawStat, StatusEntry } from "./parse.ts";
import type { FileStat } from "./wire.ts";

/** Untracked files are line-counted only up to these bounds; past them they count 0/0. */
const UNTRACKED_COUNT_FILES = 1000;
const UNTRACKED_COUNT_FILE_BYTES = 1024 * 1024;
const UNTRACKED_COUNT_TOTAL_BYTES = 16 * 1024 * 1024;

/** A head is read one byte past the per-file byte cap, so a longer file shows as `partial`. */
const HEAD_BYTES = FILE_BYTE_CAP + 1;

/** An untracked file's first bytes as the `diff` row carries them; `partial` when it is longer. */
export interface UntrackedHead {
  bytes: Uint8Array;
  partial: boolean;
}

/** Untracked files' heads whose reads a scan started early, by path. */
export type UntrackedHeads = Map<string, Promise<UntrackedHead | null>>;

/** What a scan reads of its untracked entries. */
export interface UntrackedReads {
  /**
   * Lines in each untracked entry, in status order, within the bounds above (the first
   * {@link UNTRACKED_COUNT_FILES} files, 1 MiB each, 16 MiB in all); a file past them, a binary
   * one or one that went is absent or counts 0.
   */
  lines: Promise<Map<string, number>>;
  /** The heads of the first `heads` untracked entries (see {@link readUntracked}). */
  heads: UntrackedHeads;
}

/**
 * Reads the untracked entries under `root` one after another from now: each file's line count
 * and, for the first `heads` of them (a record's diff carries at most as many files as its
 * budget has left), its head, in hand when the diff lands. A file the count reads whole gives
 * its head from that same read; only a file the count does not read (too large, past the
 * bounds, a link) is opened for its head. One file at a time: a tree of many untracked files
 * holds one of them open at once, not hundreds.
 */
export function readUntracked(root: string, entries: StatusEntry[], heads = 0): UntrackedReads {
  const paths = entries.filter((e) => e.status === "untracked").map((e) => e.path);
  const wanted = paths.slice(0, Math.max(0, heads)).map(() =>
    Promise.withResolvers<UntrackedHead | null>()
  );
  const lines = (async () => {
    const out = new Map<string, number>();
    let budget = UNTRACKED_COUNT_TOTAL_BYTES;
    for (let i = 0; i < paths.length; i++) {
      // Counting stops for good at its bounds (the budget only shrinks); heads may go on.
      const counting = i < UNTRACKED_COUNT_FILES && budget > 0;
      if (!counting && i >= wanted.length) break;
      const limit = counting ? Math.min(budget, UNTRACKED_COUNT_FILE_BYTES) : -1;
      const read = await readOnce(`${root}/${paths[i]}`, limit, i < wanted.length);
      if (counting) {
        budget -= read.bytes;
        out.set(paths[i], read.lines);
      }
      wanted[i]?.resolve(read.head);
    }
    return out;
  })();
  return { lines, heads: new Map(wanted.map((w, i) => [paths[i], w.promise])) };
}

/**
 * The worktree layer's per-file stats in status order: tracked files from the diff's `counts`,
 * untracked ones from {@link readUntracked}'s lines.
 */
export function worktreeStats(
  entries: StatusEntry[],
  counts: Map<string, RawStat>,
  untracked: Map<string, number>,
): FileStat[] {
  return entries.map((e) => {
    if (e.status === "untracked") {
      return { path: e.path, added: untracked.get(e.path) ?? 0, removed: 0, status: e.status };
    }
    const c = counts.get(e.path);
    return { path: e.path, added: c?.added ?? 0, removed: c?.removed ?? 0, status: e.status };
  });
}

interface Read {
  /** Lines counted (0 when not counted, binary, or gone). */
  lines: number;
  /** Bytes the count spent of its total. */
  bytes: number;
  head: UntrackedHead | null;
}

const NOTHING: Read = { lines: 0, bytes: 0, head: null };

/**
 * One untracked file: its lines when it is a regular file of at most `limit` bytes (read whole;
 * a binary one counts 0 but spends its bytes), and with `wantHead` its head - from that whole
 * read, or else read on its own.
 */
async function readOnce(path: string, limit: number, wantHead: boolean): Promise<Read> {
  try {
    const st = await Deno.lstat(path);
    if (st.isFile && st.size <= limit) {
      const bytes = await Deno.readFile(path);
      const head = bytes.length > HEAD_BYTES
        ? { bytes: bytes.slice(0, HEAD_BYTES), partial: true }
        : { bytes, partial: false };
      return { lines: countLines(bytes), bytes: bytes.length, head: wantHead ? head : null };
    }
    return { ...NOTHING, head: wantHead ? await headOf(path, st) : null };
  } catch {
    // A file that went after the status: no lines and no content, as for a deleted file.
    return NOTHING;
  }
}

/** Lines in a text file's bytes (a last line without its newline counts); a binary file's 0. */
function countLines(bytes: Uint8Array): number {
  if (bytes.subarray(0, 8000).includes(0)) return 0;
  let lines = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  if (bytes.length && bytes[bytes.length - 1] !== 10) lines++;
  return lines;
}

/**
 * The first bytes of an untracked file, one past the per-file byte cap (a symlink reads as its
 * target, as git stores it); null when it is neither a file nor a link, or went.
 */
export async function untrackedHead(root: string, path: string): Promise<UntrackedHead | null> {
  try {
    return await headOf(`${root}/${path}`, await Deno.lstat(`${root}/${path}`));
  } catch {
    // A file that went between the status and the read: no content, as for a deleted file.
    return null;
  }
}

/** {@link untrackedHead} of a path already stat'ed (without following a link); throws if it went. */
async function headOf(path: string, st: Deno.FileInfo): Promise<UntrackedHead | null> {
  if (st.isSymlink) {
    return { bytes: new TextEncoder().encode(await Deno.readLink(path)), partial: false };
  }
  if (!st.isFile) return null;
  using fh = await Deno.open(path);
  const buf = new Uint8Array(Math.min(HEAD_BYTES, st.size));
  let got = 0;
  while (got < buf.length) {
    const n = await fh.read(buf.subarray(got));
    if (n === null) break;
    got += n;
  }
  return { bytes: buf.subarray(0, got), partial: st.size > got };
}
