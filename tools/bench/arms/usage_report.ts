/**
 * The forge arm of the usage bench, as a whole process: what a usage subscribe does - scan the
 * pool and build the report - then the same again with nothing changed. Prints JSON with both
 * times and the peak RSS. It imports the usage scanner and an import-free /proc reader and
 * nothing else, so the process's own start is what a small program's is.
 *
 *   tools/deno.sh run --allow-all tools/bench/arms/usage_report.ts POOL_CONFIG_DIR [--plain]
 *
 * `--plain`: the first scan's reader threads read each file as text and parse its usage lines
 * whole (usage_plain_worker.ts), in place of the WebAssembly byte reader.
 */
import { processNs } from "../support/proc_cpu.ts";
import { PriceTable } from "../../../subsystems/usage/prices.ts";
import { UsageScanner } from "../../../subsystems/usage/scanner.ts";

/**
 * What one forge process does for a usage subscribe - scan the pool and build
 * the report - then the same again with nothing changed; answered as JSON with the peak RSS.
 */
export async function measure(pool: string, plain = false) {
  const prices = PriceTable.bundled();
  const reader = plain ? new URL("./usage_plain_worker.ts", import.meta.url) : undefined;
  const scanner = new UsageScanner({ configDirs: [pool], projects: [], prices, reader });
  const cpu0 = processNs(Deno.pid) / 1e6;
  let t0 = performance.now();
  const cold = await scanner.scan();
  const coldMs = performance.now() - t0;
  const coldCpuMs = processNs(Deno.pid) / 1e6 - cpu0;
  t0 = performance.now();
  const warm = await scanner.scan();
  const warmMs = performance.now() - t0;
  const status = await Deno.readTextFile("/proc/self/status");
  const hwm = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
  const snap = cold.snapshot;
  return {
    coldMs,
    coldCpuMs,
    warmMs,
    peakRssMiB: hwm,
    files: [cold.files_read, warm.files_read, warm.files_reused],
    skipped: cold.skipped_lines,
    total: snap.lifetime.total,
    byModel: snap.lifetime.by_model,
  };
}

if (import.meta.main) {
  console.log(
    JSON.stringify(await measure(Deno.args[0], Deno.args[1] === "--plain")),
  );
}
