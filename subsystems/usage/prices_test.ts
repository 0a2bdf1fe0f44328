import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { type MessageTokens, noTokens, PriceTable } from "./prices.ts";

const table = PriceTable.bundled();

function tokens(over: Partial<MessageTokens>): MessageTokens {
  return { ...noTokens(), ...over };
}

function near(actual: number | null, expected: number): void {
  if (actual === null || Math.abs(actual - expected) > 1e-12) {
    throw new Error(`cost ${actual} is not ${expected}`);
  }
}

Deno.test("prices: the bundled table names its source and date and prices the current lineup", () => {
  assertEquals(/^\d{4}-\d{2}-\d{2}$/.test(table.source.as_of), true);
  assertEquals(table.source.source.length > 40, true);
  for (
    const model of ["claude-fable-5-2", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"]
  ) {
    const row = table.lookup(model);
    if (!row) throw new Error(`${model} is missing from prices.json`);
    for (const rate of [row.input, row.output, row.cache_write_5m, row.cache_write_1h]) {
      assertEquals(rate > 0, true, `${model} has every rate`);
    }
  }
});

Deno.test("prices: agrees with the real CLI's own costUSD for one Opus 5.5 turn", () => {
  // The 2.1.332 result frame (01-basic-partial): 2712 input + 11 output tokens, costUSD 0.011068.
  near(table.costOf("claude-opus-5-5", tokens({ input: 2712, output: 11 })), 0.011068);
});

Deno.test("prices: each token kind at its own rate, 1-hour cache writes at theirs", () => {
  // Opus 5.5: 4 in, 20 out, 5 (5m write), 8 (1h write), 0.20 read, per million.
  const cost = table.costOf(
    "claude-opus-5-5",
    tokens({
      input: 1000,
      output: 400,
      cache_creation: 2000,
      cache_creation_1h: 500,
      cache_read: 3000,
    }),
  );
  near(cost, (1000 * 4 + 400 * 20 + 1500 * 5 + 500 * 8 + 3000 * 0.2) / 1e6);
});

Deno.test("prices: a model missing from the table is unpriced (null), never zero", () => {
  assertEquals(table.costOf("claude-imaginary-9", tokens({ input: 10 })), null);
  assertEquals(table.lookup("claude-imaginary-9"), null);
});

Deno.test("prices: ids with a [1m] tag or a date suffix find their row", () => {
  assertEquals(table.lookup("claude-opus-5-5[1m]"), table.lookup("claude-opus-5-5"));
  assertEquals(table.lookup("claude-sonnet-4-20250514"), table.lookup("claude-sonnet-4"));
  assertEquals(table.lookup("claude-3-5-haiku-20241022")?.input, 0.8);
});

Deno.test("prices: fast mode multiplies where priced and is unpriced where not", () => {
  const t = tokens({ input: 1_000_000, fast: true });
  near(table.costOf("claude-opus-5-5", t), 8);
  assertEquals(table.costOf("claude-fable-5-2", t), null);
});

Deno.test("prices: Haiku 5.5 prompts over 100k tokens pay the long-prompt rates", () => {
  const at = (input: number) => table.costOf("claude-haiku-5-5", tokens({ input, output: 1000 }));
  near(at(100_000), (100_000 * 0.1 + 1000 * 0.5) / 1e6);
  near(at(100_001), (100_001 * 0.5 + 1000 * 2.5) / 1e6);
  // Cache reads count toward the prompt's length.
  const cached = table.costOf("claude-haiku-5-5", tokens({ input: 10, cache_read: 100_000 }));
  near(cached, (10 * 0.5 + 100_000 * 0.05) / 1e6);
});

Deno.test("prices: a malformed table is refused with the field named", () => {
  throws(
    () => PriceTable.fromJson({ source: "x", as_of: "2026-12-02", models: {} }, "test.json"),
    /test\.json: currency is invalid/,
  );
  throws(
    () =>
      PriceTable.fromJson({
        source: "x",
        as_of: "2026-12-02",
        currency: "USD",
        unit: "per million tokens",
        models: { m: { input: 1, output: 1, cache_write_5m: 1, cache_read: 1 } },
      }),
    /models\.m\.cache_write_1h is invalid/,
  );
  const file = (m: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
    source: "x",
    as_of: "2026-12-02",
    currency: "USD",
    unit: "per million tokens",
    models: {
      m: { input: 1, output: 1, cache_write_5m: 1, cache_write_1h: 1, cache_read: 1, ...m },
    },
    ...top,
  });
  const refused = (data: unknown, why: RegExp) => throws(() => PriceTable.fromJson(data, "t"), why);
  refused(file({ extra: 1 }), /t: models\.m\.extra is invalid: unknown field/);
  refused(file({ input: -1 }), /t: models\.m\.input is invalid/);
  refused(file({ fast_multiplier: 0 }), /models\.m\.fast_multiplier is invalid/);
  refused(
    file({ long_prompt: { ...file({}).models.m, threshold_tokens: 1.5 } }),
    /models\.m\.long_prompt\.threshold_tokens is invalid/,
  );
  refused(file({}, { as_of: "2 Dec" }), /t: as_of is invalid/);
  refused(file({}, { notes: [1] }), /t: notes is invalid/);
  refused([], /t: \(root\) is invalid/);
  assertEquals(PriceTable.fromJson(file({}, { notes: ["n"] }), "t").lookup("m")?.input, 1);
});
