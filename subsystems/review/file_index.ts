/**
 * The `file_index` row (spec: session table; update `file_index_changed`): every file under the
 * session's scan cwd, walked with the user's gitignore preference, the root's own `.git` dropped
 * whether or not that preference is on. In a repository with the preference on, git itself
 * lists the files (`ls-files -co --exclude-standard`, minus tracked files deleted from the
 * tree); otherwise a plain walk. Pokes from the change watch coalesce into one walk; a still
 * tree is walked at most once per five seconds; a walk reports that it moved only when it
 * differs from what the seat's readers already hold.
 *
 * Wire shape (catalogue: `{entries: {...}}`): a tree keyed by name, a directory's value its own
 * `{entries}`, a file's value null: `{"entries": {"src": {"entries": {"a.ts": null}}}}`.
 */
import type { FileIndex } from "../../protocol/mod.ts";
import { git, text } from "./git.ts";

/** Indexer knobs. */
export interface FileIndexOptions {
  /** The user's gitignore preference (default on). */
  respectGitignore?: boolean;
  /** A still tree is walked at most this often (spec: five seconds). */
  stillIntervalMs?: number;
  /** Walk bound: past it the index stops growing. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
  /**
   * True while a change watch covers the tree: a still, watched tree is not walked again at
   * all (every write pokes it), so a read of a warm index runs no walk and no git.
   */
  watched?: () => boolean;
}

/** The walk interval for a still tree (spec: `file_index` row). */
export const STILL_INTERVAL_MS = 5000;
const MAX_ENTRIES = 200_000;

/** List every file under `cwd` as sorted `/`-separated paths relative to it. */
export async function listFiles(
  cwd: string,
  respectGitignore = true,
  maxEntries = MAX_ENTRIES,
): Promise<string[]> {
  if (respectGitignore) {
    const [listed, deleted] = await Promise.all([
      git(cwd, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate"]),
      git(cwd, ["ls-files", "-z", "--deleted"]),
    ]);
    if (listed.code === 0 && deleted.code === 0) {
      const gone = new Set(text(deleted.stdout).split("\0"));
      const files = text(listed.stdout).split("\0").filter((p) => p !== "" && !gone.has(p));
      return files.sort().slice(0, maxEntries);
    }
  }
  const out: string[] = [];
  await walk(cwd, "", out, maxEntries);
  return out.sort();
}

async function walk(root: string, rel: string, out: string[], max: number): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(rel ? `${root}/${rel}` : root)) entries.push(e);
  } catch {
    return; // a directory that vanished or cannot be listed holds nothing we can name
  }
  for (const e of entries) {
    if (out.length >= max) return;
    if (rel === "" && e.name === ".git") continue;
    const path = rel ? `${rel}/${e.name}` : e.name;
    // Symlinks are listed, never followed: a link to / must not walk the machine.
    if (e.isDirectory && !e.isSymlink) await walk(root, path, out, max);
    else out.push(path);
  }
}

/** Fold sorted relative paths into the wire's nested `{entries}` tree. */
export function toIndex(paths: string[]): FileIndex {
  const root: FileIndex = { entries: {} };
  for (const p of paths) {
    const parts = p.split("/");
    let at = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = at.entries[parts[i]];
      if (next) at = next;
      else {
        const made: FileIndex = { entries: {} };
        at.entries[parts[i]] = made;
        at = made;
      }
    }
    const leaf = parts[parts.length - 1];
    if (!(leaf in at.entries)) at.entries[leaf] = null;
  }
  return root;
}

/** One seat's index: coalesced walks, the still-tree bound, and change detection. */
export class FileIndexer {
  #dirty = true;
  #walkedAt = -Infinity;
  #paths: string[] = [];
  #held: string | null = null;
  #inflight: Promise<void> | null = null;
  #walks = 0;
  readonly #respect: boolean;
  readonly #interval: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #watched: () => boolean;

  constructor(readonly cwd: string, opts: FileIndexOptions = {}) {
    this.#respect = opts.respectGitignore ?? true;
    this.#interval = opts.stillIntervalMs ?? STILL_INTERVAL_MS;
    this.#max = opts.maxEntries ?? MAX_ENTRIES;
    this.#now = opts.now ?? Date.now;
    this.#watched = opts.watched ?? (() => false);
  }

  /** How many walks have run (observability and tests). */
  get walks(): number {
    return this.#walks;
  }

  /** The change watch saw writes under the tree: the next read walks again. */
  poke(): void {
    this.#dirty = true;
  }

  /** The record's read: the index (walked if due), now held by the seat's readers. */
  async snapshot(): Promise<FileIndex> {
    await this.#refresh();
    this.#held = this.#paths.join("\0");
    return toIndex(this.#paths);
  }

  /**
   * A watch pass: walk if due and answer the index when it differs from what readers hold (the
   * last snapshot or the last index this returned), else null. What it returns is held.
   */
  async check(): Promise<FileIndex | null> {
    await this.#refresh();
    const key = this.#paths.join("\0");
    if (key === this.#held) return null;
    this.#held = key;
    return toIndex(this.#paths);
  }

  async #refresh(): Promise<void> {
    if (this.#inflight) return await this.#inflight;
    if (!this.#dirty && (this.#watched() || this.#now() - this.#walkedAt < this.#interval)) return;
    this.#inflight = (async () => {
      this.#dirty = false; // a poke during the walk marks it dirty again
      this.#walks++;
      this.#paths = await listFiles(this.cwd, this.#respect, this.#max);
      this.#walkedAt = this.#now();
    })();
    try {
      await this.#inflight;
    } finally {
      this.#inflight = null;
    }
  }
}
