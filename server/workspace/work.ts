import type { Wire } from "../../protocol/mod.ts";

/** spec: home > projects[].work and agents[].work: branch, changed, gate, read at a directory. */
export interface WorkSummary {
  [key: string]: Wire;
  branch: string | null;
  changed: number | null;
  gate: "in_repo" | "not_a_repository" | "gone" | "scanner_failed";
}

const CACHE_MS = 2_000;
const cache = new Map<string, { at: number; value: Promise<WorkSummary> }>();

/**
 * Reads a directory's branch and changed-file count with two git calls. Cached for two seconds:
 * a home read happens on every fleet redraw, and git is the cost. The review subsystem's scan is
 * the deep read; this is the row's glance.
 */
export function readWork(path: string): Promise<WorkSummary> {
  const hit = cache.get(path);
  const now = performance.now();
  if (hit && now - hit.at < CACHE_MS) return hit.value;
  const value = scan(path);
  cache.set(path, { at: now, value });
  return value;
}

async function scan(path: string): Promise<WorkSummary> {
  try {
    const info = await Deno.stat(path);
    if (!info.isDirectory) return { branch: null, changed: null, gate: "gone" };
  } catch {
    // spec: a working tree that cannot be stat'ed is `gone`; the gate is the reason.
    return { branch: null, changed: null, gate: "gone" };
  }
  try {
    const inside = await git(path, ["rev-parse", "--is-inside-work-tree"]);
    if (inside.code !== 0) return { branch: null, changed: null, gate: "not_a_repository" };
    const branch = await git(path, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
    const status = await git(path, ["status", "--porcelain=v1", "-z", "--untracked-files=normal"]);
    if (status.code !== 0) return { branch: null, changed: null, gate: "scanner_failed" };
    const changed = status.out.split("\0").filter((e) => /^[ MADRCUT?!]{2} /.test(e)).length;
    return { branch: branch.code === 0 ? branch.out.trim() : null, changed, gate: "in_repo" };
  } catch {
    // git would not run: the gate `scanner_failed` is what the row says.
    return { branch: null, changed: null, gate: "scanner_failed" };
  }
}

async function git(cwd: string, args: string[]): Promise<{ code: number; out: string }> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, ...args],
    stdout: "piped",
    stderr: "null",
    env: { GIT_OPTIONAL_LOCKS: "0" },
  }).output();
  return { code: out.code, out: new TextDecoder().decode(out.stdout) };
}
