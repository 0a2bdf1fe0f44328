/**
 * The usage bench's baseline arm: `ccusage` (npm), installed into a temp dir (it is not a
 * dependency of forge) and given forge's price table as its pricingOverrides, so the costs are
 * comparable; each run is a whole process.
 */
import { join } from "node:path";
import bundled from "../../../subsystems/usage/prices.json" with { type: "json" };
import { timedProcess } from "./process.ts";

type Obj = Record<string, unknown>;

/** Install ccusage into `tmp` and write its config: forge's table as pricingOverrides. */
export async function installCcusage(tmp: string, version: string): Promise<string[]> {
  const prefix = join(tmp, "ccusage");
  const install = await new Deno.Command("npm", {
    args: ["install", "--prefix", prefix, "--no-audit", "--no-fund", `ccusage@${version}`],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!install.success) {
    throw new Error(`npm install ccusage@${version}: ${new TextDecoder().decode(install.stderr)}`);
  }
  const overrides: Obj = {};
  for (const [model, r] of Object.entries(bundled.models) as [string, Record<string, number>][]) {
    overrides[model] = {
      inputCostPerToken: r.input / 1e6,
      outputCostPerToken: r.output / 1e6,
      cacheCreationInputTokenCost: r.cache_write_5m / 1e6,
      cacheReadInputTokenCost: r.cache_read / 1e6,
      ...(typeof r.fast_multiplier === "number" ? { fastMultiplier: r.fast_multiplier } : {}),
    };
  }
  const config = join(tmp, "ccusage.json");
  await Deno.writeTextFile(config, JSON.stringify({ defaults: { pricingOverrides: overrides } }));
  const cli = join(prefix, "node_modules/ccusage/src/cli.js");
  return [cli, "claude", "daily", "--json", "--breakdown", "--offline", "--config", config];
}

/** One ccusage run over the pool, as a whole process: times, totals, per model. */
export async function runCcusage(args: string[], pool: string) {
  const run = await timedProcess(["node", ...args], {
    CLAUDE_CONFIG_DIR: pool,
    PATH: Deno.env.get("PATH") ?? "",
  });
  const report = JSON.parse(run.stdout);
  const byModel = new Map<string, { cost: number; tokens: number[] }>();
  for (const day of report.daily) {
    for (const b of day.modelBreakdowns) {
      // ccusage reports fast-mode messages as a model of their own, "<model>-fast".
      const name = String(b.modelName).replace(/-fast$/, "");
      const m = byModel.get(name) ?? { cost: 0, tokens: [0, 0, 0, 0] };
      m.cost += b.cost;
      [b.inputTokens, b.outputTokens, b.cacheCreationTokens, b.cacheReadTokens].forEach((v, i) =>
        m.tokens[i] += v
      );
      byModel.set(name, m);
    }
  }
  return { ...run, totals: report.totals, byModel };
}
