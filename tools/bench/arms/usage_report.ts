/**
 * The forge arm of the usage bench, as a whole process: what a usage subscribe does - scan the
 * pool and build the report - then the same again with nothing changed. Prints JSON with both
 * times and the peak RSS. It imports the usage scanner and nothing else, so the process's own
 * start is what a small program's is.
 *
 *   tools/deno.sh run --allow-all tools/bench/arms/usage_report.ts POOL_CONFIG_DIR
 */
import { PriceTable } from "../../../subsystems/usage/prices.ts";
import { UsageScanner } from "../../../subsystems/usage/scanner.ts";

/**
 * What one forge process does for a usage subscribe - scan the pool and build
 * the report - then the same again with nothing changed; answered as JSON with the peak RSS.
 */
export async function measure(pool: string) {
  const prices = PriceTable.bundled();
  const scanner = new UsageScanner({ configDirs: [pool], projects: [], prices });
  let t0 = performance.now();
  const cold = await scanner.scan();
  const coldMs = performance.now() - t0;
  t0 = performance.now();
  const warm = await scanner.scan();
  const warmMs = performance.now() - t0;
  const status = await Deno.readTextFile("/proc/self/status");
  const hwm = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
  const snap = cold.snapshot;
  return {
    coldMs,
    warmMs,
    peakRssMiB: hwm,
    files: [cold.files_read, warm.files_read, warm.files_reused],
    skipped: cold.skipped_lines,
    total: snap.lifetime.total,
    byModel: snap.lifetime.by_model,
  };
}

if (import.meta.main) console.log(JSON.stringify(await measure(Deno.args[0])));
