/**
 * The forge arm of the usage bench, as a whole process: what a usage subscribe does - scan the
 * pool and build the report - then the same again with nothing changed, and again once a turn
 * was appended to the pool's longest transcripts (the live sessions a rescan finds grown; the
 * files are cut back to their sizes after). Prints JSON with the times and the peak RSS. It imports the usage scanner and an import-free /proc reader and
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
  const turn = await afterTurn(pool, scanner, cold.snapshot.lifetime.total.messages);
  const status = await Deno.readTextFile("/proc/self/status");
  const hwm = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0) / 1024;
  const snap = cold.snapshot;
  return {
    coldMs,
    coldCpuMs,
    warmMs,
    turn,
    peakRssMiB: hwm,
    files: [cold.files_read, warm.files_read, warm.files_reused],
    skipped: cold.skipped_lines,
    total: snap.lifetime.total,
    byModel: snap.lifetime.by_model,
  };
}

/** Transcripts a turn is appended to: a user's live sessions, the longest being the worst case. */
const LIVE = 5;

/** A rescan once each of the LIVE longest transcripts gained a turn (its own last four lines
 * again: a new prompt and a repeat of its last message, which counts once): its time, the
 * bytes it read against the bytes those files hold, and whether the count held. */
async function afterTurn(pool: string, scanner: UsageScanner, messages: number) {
  const files = [...Deno.readDirSync(`${pool}/projects`)]
    .flatMap((d) => d.isDirectory ? transcripts(`${pool}/projects/${d.name}`) : [])
    .sort((a, b) => b.size - a.size).slice(0, LIVE);
  const held = files.reduce((n, f) => n + f.size, 0);
  try {
    for (const f of files) {
      const text = Deno.readTextFileSync(f.path).split("\n").slice(-5).join("\n");
      Deno.writeTextFileSync(f.path, text, { append: true });
    }
    const t0 = performance.now();
    const again = await scanner.scan();
    return {
      ms: performance.now() - t0,
      bytesRead: again.bytes_read,
      bytesHeld: held,
      appended: again.files_appended,
      report: again.report,
      sameCount: again.snapshot.lifetime.total.messages === messages,
    };
  } finally {
    for (const f of files) Deno.truncateSync(f.path, f.size);
  }
}

function transcripts(dir: string): { path: string; size: number }[] {
  return [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isFile && e.name.endsWith(".jsonl")
      ? [{ path: `${dir}/${e.name}`, size: Deno.statSync(`${dir}/${e.name}`).size }]
      : []
  );
}

if (import.meta.main) {
  console.log(
    JSON.stringify(await measure(Deno.args[0], Deno.args[1] === "--plain")),
  );
}
