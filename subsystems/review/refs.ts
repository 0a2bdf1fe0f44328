/**
 * The default-branch candidates' refs, read from the repository's files instead of a
 * `git for-each-ref` process (one git process fewer a record). Refs are loose files
 * under the common git dir or lines of its `packed-refs`; a linked worktree's `.git` file names
 * its own git dir, whose `commondir` holds the shared refs. Anything this reader does not know
 * for certain (a reftable repository, a `.git` it cannot read, a ref file it cannot parse)
 * answers null, and the scan asks git as before.
 */
import { git, text } from "./git.ts";

/** The refs the default branch is chosen from, in `resolveDefault`'s order of preference. */
export const DEFAULT_REFS = [
  "refs/remotes/origin/HEAD",
  "refs/remotes/origin/main",
  "refs/remotes/origin/master",
  "refs/heads/main",
  "refs/heads/master",
];

/** The format both paths answer in: `refname NUL symref NUL objectname`, one ref a line. */
export const REFS_FORMAT = "%(refname)%00%(symref)%00%(objectname)";

/**
 * The candidates that exist in the repository whose top level is `root`, as `for-each-ref
 * --format=REFS_FORMAT` prints them; `code` non-zero when git itself failed.
 */
export async function defaultRefs(root: string): Promise<{ code: number; out: string }> {
  // The refs read straight from the files is a shortcut: git below answers when it fails.
  const read = await readRefs(root).catch(() => null);
  if (read !== null) return { code: 0, out: read };
  const r = await git(root, ["for-each-ref", `--format=${REFS_FORMAT}`, ...DEFAULT_REFS]);
  return { code: r.code, out: text(r.stdout) };
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The candidates read from files, or null when the files cannot be read with certainty. */
export async function readRefs(root: string): Promise<string | null> {
  const common = await commonDir(root);
  if (common === null || await exists(`${common}/reftable`)) return null;
  let packed: Map<string, string> | null = null;
  const packedRefs = async () => packed ??= parsePacked(await readOrNull(`${common}/packed-refs`));
  /** A ref's direct content: a symref's target or an oid; undefined when absent, null unknown. */
  const direct = async (
    ref: string,
  ): Promise<{ sym: string | null; oid: string | null } | null | undefined> => {
    const loose = await readOrNull(`${common}/${ref}`);
    if (loose === null) {
      const oid = (await packedRefs()).get(ref);
      return oid === undefined ? undefined : { sym: null, oid };
    }
    const line = loose.trim();
    if (line.startsWith("ref: ")) return { sym: line.slice(5).trim(), oid: null };
    return OID.test(line) ? { sym: null, oid: line } : null;
  };
  const lines: string[] = [];
  for (const ref of [...DEFAULT_REFS].sort()) {
    const first = await direct(ref);
    if (first === null) return null;
    if (first === undefined) continue;
    // A symref's objectname is its final target's; a dangling one is skipped, as git skips it.
    let at = first;
    for (let hops = 0; at.oid === null; hops++) {
      // Only a plain name under refs/ is followed here; anything else is git's to resolve.
      if (hops === 5 || at.sym === null || !/^refs\/[^.][\w./-]*$/.test(at.sym)) return null;
      if (at.sym.includes("..")) return null;
      const next = await direct(at.sym);
      if (next === null) return null;
      if (next === undefined) break;
      at = next;
    }
    if (at.oid === null) continue;
    lines.push(`${ref}\0${first.sym ?? ""}\0${at.oid}\n`);
  }
  return lines.join("");
}

/** The git dir holding shared refs: `.git` itself, or a linked worktree's `commondir`. */
async function commonDir(root: string): Promise<string | null> {
  const dotGit = `${root}/.git`;
  // A probe: no `.git` is not a repository.
  const st = await Deno.stat(dotGit).catch(() => null);
  if (st === null) return null;
  if (st.isDirectory) return dotGit;
  const pointer = /^gitdir: (.+)$/m.exec((await readOrNull(dotGit)) ?? "");
  if (!pointer) return null;
  const gitDir = absolute(root, pointer[1].trim());
  const common = (await readOrNull(`${gitDir}/commondir`))?.trim();
  return common ? absolute(gitDir, common) : gitDir;
}

function absolute(from: string, path: string): string {
  return path.startsWith("/") ? path : `${from}/${path}`;
}

/** `packed-refs` lines `oid refname`; the header and peeled (`^`) lines are not refs. */
function parsePacked(body: string | null): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of (body ?? "").split("\n")) {
    if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
    const space = line.indexOf(" ");
    if (space > 0) refs.set(line.slice(space + 1).trim(), line.slice(0, space));
  }
  return refs;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => null)) !== null; // a probe: absence is the answer
}

/**
 * The default branch: origin/HEAD's target, else origin/main, origin/master, then the local
 * main or master. `remote` says the base is remote-tracking (a fetch can check it).
 */
export function resolveDefault(
  out: string,
): { branch: string; ref: string; remote: boolean; oid: string | null } | null {
  const have = new Map<string, string>();
  const oids = new Map<string, string>();
  for (const line of out.split("\n")) {
    if (!line) continue;
    const [ref, sym, oid] = line.split("\0");
    have.set(ref, sym ?? "");
    if (oid) oids.set(ref, oid);
  }
  const head = have.get("refs/remotes/origin/HEAD");
  if (head && head.startsWith("refs/remotes/origin/")) {
    const branch = head.slice("refs/remotes/origin/".length);
    // origin/HEAD's objectname is its target's commit.
    const oid = oids.get(head) ?? oids.get("refs/remotes/origin/HEAD") ?? null;
    return { branch, ref: head, remote: true, oid };
  }
  for (const b of ["main", "master"]) {
    const ref = `refs/remotes/origin/${b}`;
    if (have.has(ref)) return { branch: b, ref, remote: true, oid: oids.get(ref) ?? null };
  }
  for (const b of ["main", "master"]) {
    const ref = `refs/heads/${b}`;
    if (have.has(ref)) return { branch: b, ref, remote: false, oid: oids.get(ref) ?? null };
  }
  return null;
}
