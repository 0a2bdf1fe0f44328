/**
 * The connection's clocks. spec: The socket > Reaching it. Defaults are the spec's; tests shorten
 * them through `FORGE_TEST_TIMERS` (documented in docs/configuration.md), e.g.
 * `keepalive_ms=400,write_ms=300`.
 */
export interface Timers {
  /** A ping unanswered this long ends the connection (spec: 60 s). */
  pingDeadMs: number;
  /** One frame write taking longer than this ends the connection (spec: 60 s). */
  writeBoundMs: number;
  /** The watchdog ends a connection with pending work and no progress for this many write bounds. */
  watchdogBounds: number;
  /** How often the write bound and the watchdog are sampled. */
  sampleMs: number;
}

export const DEFAULT_TIMERS: Timers = {
  pingDeadMs: 60_000,
  writeBoundMs: 60_000,
  watchdogBounds: 4,
  sampleMs: 1_000,
};

/** Reads the testing override; unknown names are an error so a typo cannot silently keep defaults. */
export function timersFromEnv(raw: string | undefined): Timers {
  const timers = { ...DEFAULT_TIMERS };
  if (!raw) return timers;
  for (const part of raw.split(",")) {
    const [name, value] = part.split("=");
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) {
      throw new Error(`FORGE_TEST_TIMERS: ${part} is not name=positive number`);
    }
    if (name === "keepalive_ms") timers.pingDeadMs = n;
    else if (name === "write_ms") timers.writeBoundMs = n;
    else if (name === "sample_ms") timers.sampleMs = n;
    else {throw new Error(
        `FORGE_TEST_TIMERS: unknown timer \`${name}\` (keepalive_ms, write_ms, sample_ms)`,
      );}
  }
  timers.sampleMs = Math.min(timers.sampleMs, Math.max(10, Math.floor(timers.writeBoundMs / 4)));
  return timers;
}
