import type { Host } from "../../server/subsystem.ts";
/**
 * The base check (spec: subscribe's `review` flag; session rows `git` and `diff`): whether the
 * branch diff's base, `origin/<default>`, is fresh. A refresh is one `git fetch` of the default
 * branch with an explicit refspec; success trusts the ref it wrote (`current`), failure answers
 * `unverified` with git's own first line. A base with no remote-tracking ref runs no fetch and
 * answers `local`. This server never measures `behind`.
 */
import { git } from "./git.ts";
import type { BaseState } from "./wire.ts";

/** The base a tree is measured against, as the scan resolved it. */
export interface BaseTarget {
  /** The seat's tree (the store's key). */
  cwd: string;
  /** The default branch's name (`main`). */
  branch: string;
  /** The remote the tracking ref belongs to (`origin`). */
  remote: string;
  /** True when `refs/remotes/<remote>/<branch>` existed at scan time. */
  remote_tracking: boolean;
}

/** What a read answers: the state and git's words for a check that could not run. */
export interface BaseAnswer {
  base: BaseState;
  base_error: string | null;
}

interface Measurement extends BaseAnswer {
  at: number;
}

/** Store knobs; the defaults are the spec's. */
export interface BaseStoreOptions {
  /** A measurement older than this is held and ignored by a review read (spec: four minutes). */
  windowMs?: number;
  /** A successful check is not repeated sooner than this. */
  throttleMs?: number;
  /** Bound on one fetch. */
  fetchTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Called after each completed measurement, so the seat's watch can push `work_changed`. */
  onMeasured?: (cwd: string) => void;
  /** Where a refresh that could not even run (git would not spawn) is told. */
  log?: Host["log"];
}

/** The four-minute window (spec: `diff` row). */
export const BASE_WINDOW_MS = 4 * 60 * 1000;

/** Per-tree base measurements with a window, a throttle and at most one fetch in flight. */
export class BaseStore {
  #last = new Map<string, Measurement>();
  #inflight = new Map<string, Promise<Measurement>>();
  #window: number;
  #throttle: number;
  #fetchTimeout: number;
  #now: () => number;
  #onMeasured?: (cwd: string) => void;
  #log?: Host["log"];

  constructor(opts: BaseStoreOptions = {}) {
    this.#window = opts.windowMs ?? BASE_WINDOW_MS;
    this.#throttle = opts.throttleMs ?? 30_000;
    this.#fetchTimeout = opts.fetchTimeoutMs ?? 30_000;
    this.#now = opts.now ?? Date.now;
    this.#onMeasured = opts.onMeasured;
    this.#log = opts.log;
  }

  /**
   * The last completed measurement whatever its age (the `git` row's `base`/`base_error`,
   * carried across scans), or nulls when none has landed.
   */
  latest(cwd: string): { base: BaseState | null; base_error: string | null } {
    const m = this.#last.get(cwd);
    return m ? { base: m.base, base_error: m.base_error } : { base: null, base_error: null };
  }

  /** An ordinary record read never checks the base (spec: subscribe `review`). */
  ordinaryRead(): BaseAnswer {
    return { base: "unverified", base_error: null };
  }

  /**
   * Kick a throttled background refresh for a remote-tracking base; never waits. A local base,
   * a refresh in flight, a success younger than the throttle or a failure younger than the
   * window all make this a no-op.
   */
  kick(target: BaseTarget): void {
    if (!target.remote_tracking || !this.#due(target.cwd)) return;
    this.#refresh(target).catch((error) =>
      this.#log?.warn("review_base_refresh_failed", { cwd: target.cwd, error })
    );
  }

  /**
   * The review-scoped read. A local base is probed and answers `local`. With a session: the last
   * measurement inside the window (or unverified) at once, and a kicked refresh. Without one:
   * the refresh runs (unless throttled) and the read waits for it. `knownTracking`, when given,
   * is what a still-current stored scan found for the tracking ref, and stands in for the probe.
   */
  async reviewRead(
    target: BaseTarget,
    hasSession: boolean,
    knownTracking?: boolean,
  ): Promise<BaseAnswer> {
    if (!(knownTracking ?? await this.#probeTracking(target))) {
      const m = { base: "local" as const, base_error: null, at: this.#now() };
      this.#last.set(target.cwd, m);
      return { base: m.base, base_error: m.base_error };
    }
    const tracked = { ...target, remote_tracking: true };
    if (hasSession) {
      const m = this.#last.get(target.cwd);
      const fresh = m && this.#now() - m.at <= this.#window && m.base !== "local";
      this.kick(tracked);
      return fresh ? { base: m.base, base_error: m.base_error } : this.ordinaryRead();
    }
    const pending = this.#inflight.get(target.cwd);
    if (pending) return strip(await pending);
    if (!this.#due(target.cwd)) return strip(this.#last.get(target.cwd)!);
    return strip(await this.#refresh(tracked));
  }

  /** Resolves when no refresh is in flight for `cwd` (tests and shutdown). */
  async settled(cwd: string): Promise<void> {
    // Settled either way: the refresh's own failure was told where it happened.
    await this.#inflight.get(cwd)?.catch(() => {});
  }

  #due(cwd: string): boolean {
    if (this.#inflight.has(cwd)) return false;
    const m = this.#last.get(cwd);
    if (!m || m.base === "local") return true;
    const age = this.#now() - m.at;
    // A failed check is answered for the window rather than retried on the next open.
    return age > (m.base_error !== null ? this.#window : this.#throttle);
  }

  /** Whether the remote-tracking ref exists now: the probe that decides `local`. */
  async #probeTracking(t: BaseTarget): Promise<boolean> {
    const ref = `refs/remotes/${t.remote}/${t.branch}`;
    const r = await git(t.cwd, ["for-each-ref", "--format=%(refname)", ref]);
    return r.code === 0 && new TextDecoder().decode(r.stdout).split("\n").includes(ref);
  }

  #refresh(t: BaseTarget): Promise<Measurement> {
    const run = (async (): Promise<Measurement> => {
      const spec = `+refs/heads/${t.branch}:refs/remotes/${t.remote}/${t.branch}`;
      const r = await git(t.cwd, [
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-recurse-submodules",
        "--no-write-fetch-head",
        t.remote,
        spec,
      ], { timeoutMs: this.#fetchTimeout });
      const m: Measurement = r.code === 0
        ? { base: "current", base_error: null, at: this.#now() }
        : {
          base: "unverified",
          base_error: r.stderr_line || `git fetch exited ${r.code}`,
          at: this.#now(),
        };
      this.#last.set(t.cwd, m);
      return m;
    })();
    this.#inflight.set(t.cwd, run);
    return run.finally(() => {
      this.#inflight.delete(t.cwd);
      this.#onMeasured?.(t.cwd);
    });
  }
}

function strip(m: Measurement): BaseAnswer {
  return { base: m.base, base_error: m.base_error };
}
