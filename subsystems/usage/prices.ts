/**
 * The price table: per-million-token rates shipped as data (`prices.json`), and the cost of
 * one API message under it. spec: Subjects > usage ("pricing_available").
 *
 * A model the table does not hold is unpriced: `costOf` answers null, never a silent zero.
 */
import { z } from "zod";
import bundled from "./prices.json" with { type: "json" };

const Rates = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_write_5m: z.number().nonnegative(),
  cache_write_1h: z.number().nonnegative(),
  cache_read: z.number().nonnegative(),
}).strict();

const ModelRates = Rates.extend({
  long_prompt: Rates.extend({ threshold_tokens: z.number().int().positive() }).strict()
    .optional(),
  fast_multiplier: z.number().positive().optional(),
}).strict();

const PriceFile = z.object({
  source: z.string().min(1),
  as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  currency: z.literal("USD"),
  unit: z.literal("per million tokens"),
  notes: z.array(z.string()).optional(),
  models: z.record(z.string(), ModelRates),
}).strict();

/** One model's row of the table, per million tokens. */
export type ModelRates = z.infer<typeof ModelRates>;

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
    const parsed = PriceFile.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${label}: ${issue.path.join(".") || "(root)"} is invalid: ${issue.message}`,
      );
    }
    const { source, as_of, models } = parsed.data;
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
    const r: z.infer<typeof Rates> = row.long_prompt && prompt > row.long_prompt.threshold_tokens
      ? row.long_prompt
      : row;
    const hour = Math.min(t.cache_creation_1h, t.cache_creation);
    const perMillion = t.input * r.input + t.output * r.output +
      (t.cache_creation - hour) * r.cache_write_5m + hour * r.cache_write_1h +
      t.cache_read * r.cache_read;
    return perMillion * multiplier / 1_000_000;
  }
}
