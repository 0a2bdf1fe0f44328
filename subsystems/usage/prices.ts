/**
 * The price table: per-million-token rates shipped as data (`prices.json`), and the cost of
 * one API message under it. spec: Subjects > usage ("pricing_available").
 *
 * A model the table does not hold is unpriced: `costOf` answers null, never a silent zero.
 */
import bundled from "./prices.json" with { type: "json" };

/** Rates per million tokens. */
export interface Rates {
  input: number;
  output: number;
  cache_write_5m: number;
  cache_write_1h: number;
  cache_read: number;
}

/** One model's row of the table, per million tokens. */
export interface ModelRates extends Rates {
  /** Rates for a message whose prompt passes `threshold_tokens`. */
  long_prompt?: Rates & { threshold_tokens: number };
  fast_multiplier?: number;
}

/** What is wrong and where (`models.m.input`), or null. */
type Problem = [path: string, message: string] | null;
type Check = (v: unknown, path: string) => Problem;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const at = (path: string, key: string) => (path ? `${path}.${key}` : key);
const check = (ok: (v: unknown) => boolean, want: string): Check => (v, path) =>
  ok(v) ? null : [path, `expected ${want}`];
const number = (ok: (n: number) => boolean, want: string) =>
  check((v) => typeof v === "number" && Number.isFinite(v) && ok(v), want);
const nonNegative = number((n) => n >= 0, "a number of zero or more");
/** An object with exactly these fields (those in `optional` may be absent), each checked. */
const strict = (fields: Record<string, Check>, optional: string[] = []): Check => (v, path) => {
  if (!isRecord(v)) return [path, "expected an object"];
  for (const key of Object.keys(v)) if (!(key in fields)) return [at(path, key), "unknown field"];
  for (const [key, ok] of Object.entries(fields)) {
    if (v[key] === undefined && optional.includes(key)) continue;
    const problem = ok(v[key], at(path, key));
    if (problem) return problem;
  }
  return null;
};
const RATES: Record<string, Check> = {
  input: nonNegative,
  output: nonNegative,
  cache_write_5m: nonNegative,
  cache_write_1h: nonNegative,
  cache_read: nonNegative,
};
const MODEL_RATES = strict({
  ...RATES,
  long_prompt: strict({
    ...RATES,
    threshold_tokens: number((n) => Number.isInteger(n) && n > 0, "a whole number above 0"),
  }),
  fast_multiplier: number((n) => n > 0, "a number above 0"),
}, ["long_prompt", "fast_multiplier"]);
/** The price file's shape, checked by hand: zod would be the one reason to load it on the usage
 * scan's path (a first scan's process starts light). */
const PRICE_FILE = strict({
  source: check((v) => typeof v === "string" && v.length > 0, "a non-empty string"),
  as_of: check((v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v), "YYYY-MM-DD"),
  currency: check((v) => v === "USD", '"USD"'),
  unit: check((v) => v === "per million tokens", '"per million tokens"'),
  notes: check((v) => Array.isArray(v) && v.every((n) => typeof n === "string"), "strings"),
  models: (v, path) => {
    if (!isRecord(v)) return [path, "expected an object"];
    for (const [model, rates] of Object.entries(v)) {
      const problem = MODEL_RATES(rates, at(path, model));
      if (problem) return problem;
    }
    return null;
  },
}, ["notes"]);

/** The token counts of one API message, as the transcript's `message.usage` gives them. */
export interface MessageTokens {
  input: number;
  output: number;
  /** All cache writes (`cache_creation_input_tokens`). */
  cache_creation: number;
  /** The part of `cache_creation` written with the 1-hour lifetime; the rest is 5-minute. */
  cache_creation_1h: number;
  cache_read: number;
  /** `usage.speed` was "fast". */
  fast: boolean;
}

/** A message with no tokens yet (a record the fold refills, or a test's base). */
export function noTokens(): MessageTokens {
  return {
    input: 0,
    output: 0,
    cache_creation: 0,
    cache_creation_1h: 0,
    cache_read: 0,
    fast: false,
  };
}

/** Where a table came from, carried onto the snapshot so a client can show it. */
export interface PriceSource {
  source: string;
  as_of: string;
}

// A transcript's model id may carry a context-window tag ("[1m]") or a release date suffix
// ("claude-sonnet-4-20250514"); the table is keyed by the bare id.
const WINDOW_TAG = /\[[^\]]*\]$/;
const DATE_SUFFIX = /-\d{8}$/;

/** A loaded, validated price table. */
export class PriceTable {
  readonly source: PriceSource;
  readonly #models: ReadonlyMap<string, ModelRates>;
  readonly #derived = new Map<string, ModelRates | null>();

  private constructor(source: PriceSource, models: Map<string, ModelRates>) {
    this.source = source;
    this.#models = models;
  }

  /**
   * Validate `data` (the parsed JSON of a price file) into a table. Throws an Error naming the
   * offending field when the data is not a price table.
   */
  static fromJson(data: unknown, label = "price table"): PriceTable {
    const problem = PRICE_FILE(data, "");
    if (problem) throw new Error(`${label}: ${problem[0] || "(root)"} is invalid: ${problem[1]}`);
    const { source, as_of, models } = data as {
      source: string;
      as_of: string;
      models: Record<string, ModelRates>;
    };
    return new PriceTable({ source, as_of }, new Map(Object.entries(models)));
  }

  /** The table shipped beside this file. */
  static bundled(): PriceTable {
    return PriceTable.fromJson(bundled, "prices.json");
  }

  /** The row for `model`, trying the id as written, then without a [..] tag or date suffix. */
  lookup(model: string): ModelRates | null {
    const exact = this.#models.get(model);
    if (exact) return exact;
    // Ids not in the table are few and repeat on every message: remember the answer.
    let found = this.#derived.get(model);
    if (found === undefined) {
      const bare = model.replace(WINDOW_TAG, "");
      found = this.#models.get(bare) ?? this.#models.get(bare.replace(DATE_SUFFIX, "")) ?? null;
      this.#derived.set(model, found);
    }
    return found;
  }

  /**
   * The notional USD cost of one message, or null when the model (or its fast mode) has no
   * price. Long-prompt and fast-mode rates apply per message, as the API bills them.
   */
  costOf(model: string, t: MessageTokens): number | null {
    const row = this.lookup(model);
    if (!row) return null;
    let multiplier = 1;
    if (t.fast) {
      if (row.fast_multiplier === undefined) return null;
      multiplier = row.fast_multiplier;
    }
    const prompt = t.input + t.cache_creation + t.cache_read;
    const r: Rates = row.long_prompt && prompt > row.long_prompt.threshold_tokens
      ? row.long_prompt
      : row;
    const hour = Math.min(t.cache_creation_1h, t.cache_creation);
    const perMillion = t.input * r.input + t.output * r.output +
      (t.cache_creation - hour) * r.cache_write_5m + hour * r.cache_write_1h +
      t.cache_read * r.cache_read;
    return perMillion * multiplier / 1_000_000;
  }
}
