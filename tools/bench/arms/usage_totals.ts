/**
 * The usage bench's check that both tools counted the same pool: totals and each model's tokens
 * and cost, forge beside ccusage, and forge without its long-prompt tier (which ccusage's
 * overrides cannot express) beside both.
 */
import type { measure } from "./usage_report.ts";
import type { runCcusage } from "./ccusage.ts";

type Measured = Awaited<ReturnType<typeof measure>>;
type Ccusage = Awaited<ReturnType<typeof runCcusage>>;
/** forge's costs without the long-prompt tier (usage.ts `--no-tier`). */
export type Untiered = { byModel: (readonly [string, number])[]; total: number };

export function compareTotals(f: Measured, c: Ccusage, untiered: Untiered): void {
  const t = f.total;
  const pad = (s: string | number, n = 16) => String(s).padStart(n);
  console.log(`\n${"total".padEnd(22)}${pad("forge")}${pad("ccusage")}`);
  for (
    const [name, mine, theirs] of [
      ["input_tokens", t.input_tokens, c.totals.inputTokens],
      ["output_tokens", t.output_tokens, c.totals.outputTokens],
      ["cache_creation_tokens", t.cache_creation_tokens, c.totals.cacheCreationTokens],
      ["cache_read_tokens", t.cache_read_tokens, c.totals.cacheReadTokens],
      ["cost_usd", t.cost_usd.toFixed(4), c.totals.totalCost.toFixed(4)],
      ["cost_usd, no tier", untiered.total.toFixed(4), c.totals.totalCost.toFixed(4)],
    ] as [string, string | number, string | number][]
  ) console.log(`${name.padEnd(22)}${pad(mine)}${pad(theirs)}`);
  console.log(
    `unpriced: forge ${JSON.stringify(t.unpriced_models)}, ccusage ${
      JSON.stringify(c.totals.unpricedModels ?? [])
    }`,
  );
  console.log(
    `\n${"model".padEnd(20)}${pad("forge $", 14)}${pad("no tier $", 16)}${
      pad("ccusage $", 14)
    }  tokens equal`,
  );
  const noTierCost = new Map(untiered.byModel);
  for (const r of f.byModel) {
    const m = c.byModel.get(r.name);
    const same = m !== undefined &&
      [r.input_tokens, r.output_tokens, r.cache_creation_tokens, r.cache_read_tokens]
        .every((v, i) => v === m.tokens[i]);
    console.log(
      `${r.name.padEnd(20)}${pad(r.cost_usd.toFixed(2), 14)}${
        pad((noTierCost.get(r.name) ?? 0).toFixed(2), 16)
      }${pad(m ? m.cost.toFixed(2) : "-", 14)}  ${same}`,
    );
  }
  console.log(
    "\nforge minus ccusage: Haiku 5.5 prompts over 100k tokens pay the long-prompt rates in" +
      " forge's table (ccusage's overrides can only express a 200k tier); 'no tier' is forge" +
      " without that tier. ccusage lists fast-mode messages as '<model>-fast', merged above.",
  );
}
