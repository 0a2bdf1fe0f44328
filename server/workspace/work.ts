import type { Wire } from "../../protocol/mod.ts";
import { type Stamp, stamp } from "./stamps.ts";

/** spec: home > projects[].work and agents[].work: branch, changed, gate, read at a directory. */
export interface WorkSummary {
  [key: string]: Wire;
  branch: string | null;
  changed: number | null;
  gate: "in_repo" | "not_a_repository" | "gone" | "scanner_failed";
}

/** A glance younger than this is reused as it is: a live seat's tree moves while it works. */
export const FRESH_MS = 2_000;
/**
 * A glance is reused this long while its tree's fingerprint holds (the directory, and git's
 * `.git`, which moves when HEAD or the index is written): a commit, a checkout, a staged change or a file made or removed at the top moves
 * the fingerprint and is read at once; an edit git has not looked at yet shows within this.
 */
export const STEADY_MS = 30_000;

interface Entry {
  at: number;
  print: string | null;
  value: Promise<WorkSummary>;
}

/**
 * The work glance of directories: one `git status` a read, reused as the two windows above say.
 * A home read reads every configured project's glance, and a spawned git costs milliseconds of
 * CPU (a 200-project home read spent 2.5 s of CPU in them, tools/bench/home.ts): a project whose
 * tree has not moved is not read again. The review subsystem's scan is the deep read; this is the
 * row's glance.
 */
export class WorkGlances {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly read: (path: string) => Promise<WorkSummary> = scanWork,
  ) {}

  /**
   * `path`'s glance. `live`: a seat works there, so a glance older than FRESH_MS is read again;
   * otherwise one whose fingerprint holds is reused for up to STEADY_MS.
   */
  async glance(path: string, live: boolean): Promise<WorkSummary> {
    const hit = this.#entries.get(path);
    const at = this.now();
    if (hit && at - hit.at < FRESH_MS) return hit.value;
    const print = await fingerprint(path);
    if (
      hit && !live && print !== null && print === hit.print && this.now() - hit.at < STEADY_MS
    ) {
      return hit.value;
    }
    const value = this.read(path);
    this.#entries.set(path, { at: this.now(), print, value });
    if (this.#entries.size > 4096) this.#entries.delete(this.#entries.keys().next().value!);
    return value;
  }
}

const glances = new WorkGlances();

/** `path`'s work glance through the server's one `WorkGlances`. */
export function readWork(path: string, opts: { live: boolean } = { live: true }) {
  return glances.glance(path, opts.live);
}

/**
 * What moves when a tree does, read without git: the directory's own mtime and that of git's
 * `.git`. git writes HEAD and the index as a lock file renamed into place, and a rename moves the
 * directory it lands in, so `.git`'s mtime moves with either: one stat where the two files took
 * two, and a home of hundreds of projects stats every tree on each read. Null when the
 * directory is gone.
 */
async function fingerprint(path: string): Promise<string | null> {
  const print = (s: Stamp | null) => s ? `${s.mtime}:${s.size}` : "-";
  // A path that will not stat prints as absent ("-"), which is what the print says.
  const [dir, git] = await Promise.all([stamp(path), stamp(`${path}/.git`)]);
  return dir ? `${print(dir)} ${print(git)}` : null;
}

/** Reads `path`'s glance now: one `git status`. */
export async function scanWork(path: string): Promise<WorkSummary> {
  try {
    const info = await Deno.stat(path);
    if (!info.isDirectory) return { branch: null, changed: null, gate: "gone" };
  } catch {
    // spec: a working tree that cannot be stat'ed is `gone`; the gate is the reason.
    return { branch: null, changed: null, gate: "gone" };
  }
  try {
    // One git: the branch rides porcelain v2's header, the entries are the changed files.
    const out = await new Deno.Command("git", {
      args: ["-C", path, "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal"],
      stdout: "piped",
      stderr: "piped",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr);
      const outside = /not a git repository|must be run in a work tree/.test(why);
      return { branch: null, changed: null, gate: outside ? "not_a_repository" : "scanner_failed" };
    }
    return { ...statusGlance(new TextDecoder().decode(out.stdout)), gate: "in_repo" };
  } catch {
    // git would not run: the gate `scanner_failed` is what the row says.
    return { branch: null, changed: null, gate: "scanner_failed" };
  }
}

/** The branch and the changed-file count in `git status --porcelain=v2 --branch -z` output. */
export function statusGlance(out: string): { branch: string | null; changed: number } {
  let branch: string | null = null;
  let changed = 0;
  const fields = out.split("\0");
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.startsWith("# branch.head ")) {
      const head = f.slice("# branch.head ".length);
      branch = head === "(detached)" ? null : head;
    } else if (f.startsWith("1 ") || f.startsWith("u ") || f.startsWith("? ")) changed++;
    else if (f.startsWith("2 ")) {
      changed++;
      i++; // a rename's or copy's original path follows it as a field of its own
    }
  }
  return { branch, changed };
}
