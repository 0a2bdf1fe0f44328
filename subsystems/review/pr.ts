/**
 * The `pr` and `closes` rows (spec: session table): the open pull request the seat's branch is
 * on and the issues it closes, through `gh` where it is installed and signed in. One network
 * call finds the PR, a second (only when there is one) fetches its closing issues. Answers are
 * cached per (tree, branch) with a refetch window: a record read serves the cache as it stands
 * and never waits; the seat's watch refetches a stale entry; a seat with no session looks it up
 * on the read. Where `gh` cannot run, every answer is `null` and `[]`, and the reason is handed
 * to `onUnavailable` once so the caller logs it once.
 */
import { firstLine } from "./git.ts";
import type { IssueRef, PrInfo } from "./wire.ts";

/** What the record carries for a branch. */
export interface PrAnswer {
  pr: PrInfo | null;
  closes: IssueRef[];
}

/** Lookup knobs. */
export interface PrLookupOptions {
  /** The gh executable (default `gh` on PATH). */
  gh?: string;
  /** A cached answer older than this is refetched by the watch (default 60 s). */
  refetchMs?: number;
  /** How long an unavailability verdict stands before gh is probed again (default 10 min). */
  recheckMs?: number;
  /** Bound on one gh call. */
  timeoutMs?: number;
  now?: () => number;
  /** Told why gh cannot serve, once per distinct reason. */
  onUnavailable?: (reason: string) => void;
}

/** `#run`'s codes for a gh that never started: missing, outside --allow-run, not executable. */
const NOT_INSTALLED = -2;
const NOT_ALLOWED = -3;
const NOT_EXECUTABLE = -4;

const NONE: PrAnswer = { pr: null, closes: [] };

interface Run {
  code: number;
  out: string;
  err: string;
}

/** PR lookups for every seat, cached per (tree, branch). */
export class PrLookup {
  #cache = new Map<string, { answer: PrAnswer; at: number }>();
  #verdict: { reason: string | null; at: number } | null = null;
  #told = new Set<string>();
  #gh: string;
  #refetch: number;
  #recheck: number;
  #timeout: number;
  #now: () => number;
  #onUnavailable?: (reason: string) => void;

  constructor(opts: PrLookupOptions = {}) {
    this.#gh = opts.gh ?? "gh";
    this.#refetch = opts.refetchMs ?? 60_000;
    this.#recheck = opts.recheckMs ?? 600_000;
    this.#timeout = opts.timeoutMs ?? 15_000;
    this.#now = opts.now ?? Date.now;
    this.#onUnavailable = opts.onUnavailable;
  }

  /** Null when gh can serve; otherwise why not ("gh is not installed", "gh is not signed in: ..."). */
  async availability(cwd: string): Promise<string | null> {
    if (this.#verdict && this.#now() - this.#verdict.at < this.#recheck) {
      return this.#verdict.reason;
    }
    let reason: string | null = null;
    const version = await this.#run(cwd, ["--version"]);
    if (version.code === NOT_INSTALLED) reason = "gh is not installed";
    else if (version.code === NOT_ALLOWED) {
      reason = "forge is not allowed to run gh: start it through the launcher with review on";
    } else if (version.code === NOT_EXECUTABLE) reason = "gh is not executable";
    else if (version.code !== 0) {
      reason = `gh does not run: ${firstLine(version.err) || `exit ${version.code}`}`;
    } else {
      const auth = await this.#run(cwd, ["auth", "status"]);
      if (auth.code !== 0) {
        reason = `gh is not signed in: ${
          firstLine(auth.err) || firstLine(auth.out) || `exit ${auth.code}`
        }`;
      }
    }
    this.#verdict = { reason, at: this.#now() };
    if (reason && !this.#told.has(reason)) {
      this.#told.add(reason);
      this.#onUnavailable?.(reason);
    }
    return reason;
  }

  /** The cached answer whatever its age, or none. Never waits. */
  cached(cwd: string, branch: string): PrAnswer {
    return this.#cache.get(`${cwd}\0${branch}`)?.answer ?? NONE;
  }

  /** Whether the watch should look this branch up again. */
  stale(cwd: string, branch: string): boolean {
    const c = this.#cache.get(`${cwd}\0${branch}`);
    return !c || this.#now() - c.at >= this.#refetch;
  }

  /**
   * Look the branch's open PR up now and cache the answer. A failed call keeps the previous
   * answer (and its age, so the next pass retries); gh unavailable answers none.
   */
  async lookup(cwd: string, branch: string): Promise<PrAnswer> {
    if (await this.availability(cwd)) return NONE;
    const key = `${cwd}\0${branch}`;
    const list = await this.#run(cwd, [
      "pr",
      "list",
      "--head",
      branch,
      "--state",
      "open",
      "--limit",
      "1",
      "--json",
      "number,url,isDraft",
    ]);
    const found = list.code === 0 ? parsePrList(list.out) : undefined;
    if (found === undefined) return this.cached(cwd, branch);
    let answer: PrAnswer = NONE;
    if (found) {
      const view = await this.#run(cwd, [
        "pr",
        "view",
        String(found.number),
        "--json",
        "closingIssuesReferences",
      ]);
      const closes = view.code === 0 ? parseCloses(view.out) : undefined;
      if (closes === undefined) return this.cached(cwd, branch);
      answer = { pr: found, closes };
    }
    this.#cache.set(key, { answer, at: this.#now() });
    return answer;
  }

  /**
   * The record's read: a seat with a session gets the cache as it stands (its watch corrects
   * it); a seat with no session has no watch, so a stale entry is looked up on the read.
   */
  async read(cwd: string, branch: string | null, hasSession: boolean): Promise<PrAnswer> {
    if (branch === null) return NONE;
    if (hasSession || !this.stale(cwd, branch)) return this.cached(cwd, branch);
    return await this.lookup(cwd, branch);
  }

  async #run(cwd: string, args: string[]): Promise<Run> {
    try {
      const child = new Deno.Command(this.#gh, {
        args,
        cwd,
        env: {
          GH_PROMPT_DISABLED: "1",
          GH_NO_UPDATE_NOTIFIER: "1",
          NO_COLOR: "1",
          GH_PAGER: "cat",
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, this.#timeout);
      const out = await child.output();
      clearTimeout(timer);
      const dec = new TextDecoder();
      return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
    } catch (err) {
      // Deno's own message is not said: each refusal it can raise is named in forge's words.
      if (err instanceof Deno.errors.NotFound) return { code: NOT_INSTALLED, out: "", err: "" };
      if (err instanceof Deno.errors.NotCapable) return { code: NOT_ALLOWED, out: "", err: "" };
      if (err instanceof Deno.errors.PermissionDenied) {
        return { code: NOT_EXECUTABLE, out: "", err: "" };
      }
      return { code: -1, out: "", err: "it could not be started" };
    }
  }
}

/** `gh pr list --json number,url,isDraft`: the PR, null for none, undefined when unparseable. */
export function parsePrList(out: string): PrInfo | null | undefined {
  try {
    const rows = JSON.parse(out);
    if (!Array.isArray(rows)) return undefined;
    const r = rows[0];
    if (r === undefined) return null;
    if (typeof r.number !== "number" || typeof r.url !== "string") return undefined;
    return { number: r.number, url: r.url, is_draft: r.isDraft === true };
  } catch {
    // gh's output in a shape this reader does not know: unknown, never a wrong PR.
    return undefined;
  }
}

/** `gh pr view --json closingIssuesReferences`: the issues, undefined when unparseable. */
export function parseCloses(out: string): IssueRef[] | undefined {
  try {
    const refs = JSON.parse(out)?.closingIssuesReferences;
    if (!Array.isArray(refs)) return undefined;
    return refs
      .filter((r) => typeof r?.number === "number")
      .map((r) => ({ number: r.number, url: typeof r.url === "string" ? r.url : "" }));
  } catch {
    // As above: unknown rather than wrong.
    return undefined;
  }
}
