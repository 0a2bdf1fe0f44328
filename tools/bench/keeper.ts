/**
 * Keeper bench: what the check before a write costs - a kept file is written only over what its
 * store last read or wrote (docs/state.md), which costs, when nothing moved, one stat and one
 * digest of the bytes before the change and again before the write.
 *
 *   tools/deno.sh run --allow-all tools/bench/keeper.ts [--entries 1000] [--runs 100]
 *
 * One file of `entries` board-like rows (a busy board's tasks.json). Arms are paired and
 * interleaved, their order turned each round:
 *  - change: `writable()` then `write()`, a store's change with both checks;
 *  - bare write: the same value serialised and written by the keeper's durable write alone
 *    (temp, fsync, rename, fsync of the directory) - the floor a change cannot go under;
 *  - stat: one `stat` of the file, the check's first unit;
 *  - digest: one read of the file's bytes and their SHA-256, the check's second unit (a stat
 *    cannot see a same-size edit in place within the tick of forge's own write);
 *  - read: one `read()` of the file (read, JSON parse), what a read before every write would
 *    have cost instead.
 * Each arm prints its median and range in ms. `change - bare write` is what the two checks and
 * the kept file's write queue moved together: an upper bound on the checks, whose own units are
 * the stat and digest arms (two of each per change).
 */
import { memoryLogger } from "../../server/log.ts";
import { digestOf } from "../../server/state/disk.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { numberFlag } from "./support/flags.ts";
import { median, spread } from "./support/stats.ts";

const ENTRIES = numberFlag("entries", 1000);
const RUNS = numberFlag("runs", 100);

const dir = await Deno.makeTempDir({ prefix: "forge-bench-keeper-" });
const keeper = new StateKeeper(memoryLogger());
const rows = Array.from({ length: ENTRIES }, (_, i) => ({
  id: `t-${i}`,
  subject: `Task ${i}: make the thing work end to end`,
  detail: `What done means for task ${i}: the tests named in the issue pass.`,
  status: ["pending", "in_progress", "completed"][i % 3],
  owner: i % 3 === 0 ? null : `w${i % 4}`,
}));
const opts = { area: "the bench", parse: (raw: unknown) => raw as { rows: typeof rows } };
const changed = keeper.file(`${dir}/changed.json`, opts);
const read = keeper.file(`${dir}/read.json`, opts);
const barePath = `${dir}/bare.json`;
await changed.write({ rows });
await read.write({ rows });
const bytes = new TextEncoder().encode(JSON.stringify({ rows }));

const arms: Record<string, () => Promise<unknown>> = {
  "change": async () => {
    await changed.writable();
    await changed.write({ rows });
  },
  // The same serialising as a kept file's write: only the checks are left out.
  "bare write": () =>
    keeper.writeBytes(barePath, new TextEncoder().encode(JSON.stringify({ rows }))),
  "stat": () => Deno.stat(`${dir}/changed.json`),
  "digest": async () => digestOf(await Deno.readFile(`${dir}/changed.json`)),
  "read": () => read.read(),
};
const names = Object.keys(arms);
const ms: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
try {
  for (let run = 0; run < RUNS; run++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(run + k) % names.length];
      const t0 = performance.now();
      await arms[name]();
      ms[name].push(performance.now() - t0);
    }
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
console.log(`keeper: one file of ${ENTRIES} rows, ${bytes.length} bytes; ${RUNS} runs per arm`);
for (const name of names) console.log(`  ${name.padEnd(10)} ${spread(ms[name], 3)} ms`);
const moved = median(ms["change"]) - median(ms["bare write"]);
console.log(
  `  checks and queue moved a change by ${moved.toFixed(3)} ms (median change - bare write); ` +
    `two stats and two digests: ${(2 * (median(ms["stat"]) + median(ms["digest"]))).toFixed(3)} ms`,
);
