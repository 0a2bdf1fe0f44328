/**
 * Pure parsers for git's machine formats: `status --porcelain=v2 -z`, `--raw --numstat -z`
 * (diff and log) and the stats-block fold. No I/O here; scan.ts runs the commands.
 */
import type { FileStat, FileStatus, StatsBlock } from "./wire.ts";

/** The scan's cap on files a stats block names (spec: `git` row, "the scan's cap of seven"). */
export const BUSIEST_CAP = 7;

/** One entry of the uncommitted layer, as porcelain v2 states it. */
export interface StatusEntry {
  path: string;
  old_path: string | null;
  status: FileStatus;
  submodule: boolean;
}

/** What `status --porcelain=v2 -z --branch` says. `head` null when unborn. */
export interface PorcelainStatus {
  head: string | null;
  branch: string | null;
  entries: StatusEntry[];
}

/** Parse `git status --porcelain=v2 -z --branch` output. Paths are repo-root relative. */
export function parsePorcelain(out: string): PorcelainStatus {
  const tokens = out.split("\0");
  let head: string | null = null;
  let branch: string | null = null;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === "") continue;
    if (t.startsWith("# branch.oid ")) {
      const oid = t.slice(13);
      head = oid === "(initial)" ? null : oid;
    } else if (t.startsWith("# branch.head ")) {
      const name = t.slice(14);
      branch = name === "(detached)" ? null : name;
    } else if (t.startsWith("1 ")) {
      const f = fields(t, 8);
      const s = ordinaryStatus(f[1]);
      if (s) entries.push({ path: f[8], old_path: null, status: s, submodule: f[2][0] === "S" });
    } else if (t.startsWith("2 ")) {
      const f = fields(t, 9);
      const oldPath = tokens[++i] ?? null;
      const status: FileStatus = f[1][0] === "C" ? "copied" : "renamed";
      entries.push({ path: f[9], old_path: oldPath, status, submodule: f[2][0] === "S" });
    } else if (t.startsWith("u ")) {
      const f = fields(t, 10);
      entries.push({ path: f[10], old_path: null, status: "unmerged", submodule: f[2][0] === "S" });
    } else if (t.startsWith("? ")) {
      entries.push({ path: t.slice(2), old_path: null, status: "untracked", submodule: false });
    }
  }
  return { head, branch, entries };
}

/** Split `n` space-separated fields off the front; the rest (a path with spaces) is field n. */
function fields(t: string, n: number): string[] {
  const out: string[] = [];
  let at = 0;
  for (let k = 0; k < n; k++) {
    const sp = t.indexOf(" ", at);
    out.push(t.slice(at, sp));
    at = sp + 1;
  }
  out.push(t.slice(at));
  return out;
}

/** The worktree-vs-HEAD status of an ordinary entry's XY pair; null when it nets to nothing. */
function ordinaryStatus(xy: string): FileStatus | null {
  const [x, y] = [xy[0], xy[1]];
  if (x === "A") return y === "D" ? null : "added"; // added then deleted: nothing against HEAD
  if (x === "D" || y === "D") return "deleted";
  if (x === "T" || y === "T") return "typechange";
  return "modified";
}

/** One file of a `--raw --numstat -z` listing, keyed by its new path. */
export interface RawStat {
  path: string;
  old_path: string | null;
  status: FileStatus;
  submodule: boolean;
  added: number;
  removed: number;
}

const RAW_STATUS: Record<string, FileStatus> = {
  A: "added",
  C: "copied",
  D: "deleted",
  M: "modified",
  R: "renamed",
  T: "typechange",
  U: "unmerged",
};

/**
 * Parse the NUL-separated tokens of `--raw --numstat -z` (a diff, or one commit of a log).
 * Raw records give status and old path, numstat records the counts; `-` (binary) counts 0.
 */
export function parseRawNumstat(tokens: string[]): RawStat[] {
  const byPath = new Map<string, RawStat>();
  const order: RawStat[] = [];
  const entry = (path: string): RawStat => {
    let e = byPath.get(path);
    if (!e) {
      e = { path, old_path: null, status: "modified", submodule: false, added: 0, removed: 0 };
      byPath.set(path, e);
      order.push(e);
    }
    return e;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === "") continue;
    if (t[0] === ":") {
      const parts = t.slice(1).split(" ");
      const letter = (parts[4] ?? "M")[0];
      const status = RAW_STATUS[letter] ?? "modified";
      const sub = parts[0] === "160000" || parts[1] === "160000";
      if (letter === "R" || letter === "C") {
        const oldPath = tokens[++i];
        const e = entry(tokens[++i]);
        e.old_path = oldPath;
        e.status = status;
        e.submodule = sub;
      } else {
        const e = entry(tokens[++i]);
        e.status = status;
        e.submodule = sub;
      }
      continue;
    }
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(t);
    if (!m) continue;
    let path = m[3];
    if (path === "") {
      i++; // old path; the raw record already carried it
      path = tokens[++i];
    }
    const e = entry(path);
    e.added = m[1] === "-" ? 0 : Number(m[1]);
    e.removed = m[2] === "-" ? 0 : Number(m[2]);
  }
  return order;
}

/**
 * Split `git diff --raw --numstat -z [-p]` output: the NUL-separated raw and numstat records,
 * then (with -p) an empty record and the patch text. Every record is non-empty, so the first
 * pair of NULs is the boundary; without a patch the whole output is the header.
 */
export function splitHeader(bytes: Uint8Array): { header: string; patchAt: number } {
  for (let i = bytes.indexOf(0); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(0, i + 1)) {
    if (bytes[i + 1] === 0) {
      return { header: new TextDecoder().decode(bytes.subarray(0, i)), patchAt: i + 2 };
    }
  }
  return { header: new TextDecoder().decode(bytes), patchAt: bytes.length };
}

/** One commit of a `log --raw --numstat -z` walk. */
export interface LogCommit {
  sha: string;
  committed: number;
  subject: string;
  files: RawStat[];
}

/** The log format scan.ts asks for: a record separator, then sha, time and subject. */
export const LOG_FORMAT = "--format=%x1e%h%x1f%ct%x1f%s";

/** Parse `git log -z --raw --numstat` output written with {@link LOG_FORMAT}. */
export function parseLog(out: string): LogCommit[] {
  const commits: LogCommit[] = [];
  for (const rec of out.split("\x1e")) {
    if (rec === "") continue;
    const nul = rec.indexOf("\0");
    const header = nul < 0 ? rec : rec.slice(0, nul);
    const [sha, ct, ...rest] = header.split("\x1f");
    const body = nul < 0 ? "" : rec.slice(nul + 1).replace(/^\n/, "");
    commits.push({
      sha,
      committed: Number(ct),
      subject: rest.join("\x1f"),
      files: parseRawNumstat(body.split("\0")),
    });
  }
  return commits;
}

/** Fold per-file stats into a block: full totals, the busiest `BUSIEST_CAP` files first. */
export function statsBlock(files: FileStat[]): StatsBlock {
  let added = 0;
  let removed = 0;
  for (const f of files) {
    added += f.added;
    removed += f.removed;
  }
  const busiest = [...files].sort((a, b) =>
    (b.added + b.removed) - (a.added + a.removed) ||
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  ).slice(0, BUSIEST_CAP);
  return { files: busiest, total_files: files.length, total_added: added, total_removed: removed };
}

/** A RawStat as a stats-block file. */
export function toFileStat(r: RawStat): FileStat {
  return { path: r.path, added: r.added, removed: r.removed, status: r.status };
}
