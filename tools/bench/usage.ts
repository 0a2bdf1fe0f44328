/**
 * Usage bench: a generated session pool (default 1 GB, arms/usage_pool.ts) read by forge and
 * beside it, in paired arms whose order turns each pair, every arm on a dropped page cache:
 *
 * - forge: one process scanning the pool and building the report, then again with nothing
 *   changed (arms/usage_report.ts). Its first scan is timed in the process (wall and CPU, its
 *   reader threads' included) and the whole process from the outside (wall and CPU, spawn to
 *   answer).
 * - plain: the same process and scan with the reader threads reading each file as text and
 *   parsing its usage lines whole (arms/usage_plain_worker.ts) in place of the WebAssembly byte
 *   search and walk (subsystems/usage/byte_search.ts).
 * - the read floor: every file of the pool read by 8 parallel `cat`s into /dev/null, nothing
 *   parsed: no reader of the pool can beat its wall, and its CPU is the kernel's share of
 *   reading those bytes, which any reader pays too.
 * - the search floor: the same files read by 8 parallel `grep -cF '"usage"'`, every byte looked
 *   at for the key the usage lines carry and nothing parsed: what finding those lines costs
 *   before any of them is read. Printed beside the read floor's goals, it says how much of the
 *   CPU goal's 1.5x a scan has left once it has looked at every byte.
 * - the line floor: the same files read the way forge's reader threads read them and searched
 *   with forge's own SIMD search for newlines and the key, nothing parsed (arms/usage_lines.ts):
 *   forge's first scan less this is the work done on the lines found, which the summary prices
 *   per message.
 * - ccusage (npm, installed into a temp dir with `npm install`, forge's price table as its
 *   pricingOverrides so the costs compare), a whole process.
 *
 * Goals: forge's first scan in process at most 1.3x the read floor's wall and 1.5x its CPU;
 * forge's whole process at least 2x faster than ccusage's, wall and CPU; the WebAssembly reader
 * at least 1.3x cheaper in CPU than the plain one (else it does not pay for itself). Each pair
 * prints every arm; then the medians, the ratios, forge's peak RSS, the rescan, and what both
 * tools counted, model by model.
 *
 *   tools/deno.sh task bench usage [--size-mb 1024] [--pairs 5] [--seed 1] [--ccusage 20.0.24]
 *     [--pool DIR] [--keep]
 *
 * `--pool DIR`: a pool a `--keep` run left (DIR/pool), not generated again.
 */
import { join } from "node:path";
import { PriceTable } from "../../subsystems/usage/prices.ts";
import { UsageScanner } from "../../subsystems/usage/scanner.ts";
import bundled from "../../subsystems/usage/prices.json" with { type: "json" };
import type { measure } from "./arms/usage_report.ts";
import { SERVER_V8_FLAGS } from "../permissions.ts";
import { coldRead, coldSearch, timedProcess } from "./arms/process.ts";
import { lineFloor } from "./arms/usage_lines.ts";
import { installCcusage, runCcusage } from "./arms/ccusage.ts";
import { captureTemplate, generate } from "./arms/usage_pool.ts";
import { compareTotals, type Untiered } from "./arms/usage_totals.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { median, spread } from "./support/stats.ts";
import { stringFlag } from "./support/flags.ts";

type Obj = Record<string, unknown>;

/**
 * `--no-tier POOL` (untimed): forge's costs without the long-prompt tier, which ccusage's
 * overrides cannot express; if these match ccusage, that tier is the whole cost difference.
 */
async function noTier(pool: string): Promise<Untiered> {
  const flat = structuredClone(bundled) as { models: Record<string, Obj> };
  for (const r of Object.values(flat.models)) delete r.long_prompt;
  const scan = await new UsageScanner({
    configDirs: [pool],
    projects: [],
    prices: PriceTable.fromJson(flat),
  }).scan();
  return {
    byModel: scan.snapshot.lifetime.by_model.map((r) => [r.name, r.cost_usd] as const),
    total: scan.snapshot.lifetime.total.cost_usd,
  };
}

/** One forge process on a dropped cache: timed from outside, and its own figures. */
async function forgeArm(pool: string, plain: boolean) {
  const run = await timedProcess(
    [
      Deno.execPath(),
      "run",
      "--allow-all",
      `--v8-flags=${SERVER_V8_FLAGS}`, // as forge's launcher runs the server that scans
      new URL("./arms/usage_report.ts", import.meta.url).pathname,
      pool,
      ...(plain ? ["--plain"] : []),
    ],
    { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp" },
  );
  return { ...run, m: JSON.parse(run.stdout) as Awaited<ReturnType<typeof measure>> };
}

if (Deno.args.includes("--no-tier")) {
  console.log(JSON.stringify(await noTier(stringFlag("no-tier", ""))));
  Deno.exit(0);
}

const PAIRS = Number(stringFlag("pairs", "5"));
/** Parallel readers in the floor arm: the most this disk's cold read gained from (8 here). */
const FLOOR_READERS = 8;
const given = stringFlag("pool", "");
const tmp = given || await Deno.makeTempDir({ prefix: "forge_usage_bench_" });
try {
  const pool = join(tmp, "pool");
  const t0 = performance.now();
  if (!given) {
    const template = await captureTemplate();
    const size = Number(stringFlag("size-mb", "1024")) * 1024 * 1024;
    const gen = await generate(template, pool, size, Number(stringFlag("seed", "1")));
    console.log(
      `pool: ${(gen.bytes / 2 ** 20).toFixed(0)} MiB in ${gen.files} files from a real ${
        template.header.length + template.block.length
      }-line CLI transcript (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
  const ccArgs = await installCcusage(tmp, stringFlag("ccusage", "20.0.24"));
  // Written pages still being flushed would slow whichever arm ran first.
  await new Deno.Command("sync").output();

  type Forge = Awaited<ReturnType<typeof forgeArm>>;
  const forge: Forge[] = [], plain: Forge[] = [];
  const cc: Awaited<ReturnType<typeof runCcusage>>[] = [];
  const floor: Awaited<ReturnType<typeof coldRead>>[] = [];
  const search: Awaited<ReturnType<typeof coldSearch>>[] = [];
  const lines: Awaited<ReturnType<typeof lineFloor>>[] = [];
  const s = (x: number) => x.toFixed(2);
  for (let i = 0; i < PAIRS; i++) {
    const arms = [
      async () => forge.push(await forgeArm(pool, false)),
      async () => plain.push(await forgeArm(pool, true)),
      async () => floor.push(await coldRead(pool, FLOOR_READERS)),
      async () => search.push(await coldSearch(pool, FLOOR_READERS, '"usage"')),
      async () => lines.push(await lineFloor(pool)),
      async () => cc.push(await runCcusage(ccArgs, pool)),
    ];
    for (const arm of i % 2 === 0 ? arms : arms.reverse()) await arm();
    const [f, p, r, g, c, l] = [forge[i], plain[i], floor[i], search[i], cc[i], lines[i]];
    const scan = (x: Forge) => `${s(x.m.coldMs / 1000)} s wall, ${s(x.m.coldCpuMs / 1000)} s cpu`;
    console.log(
      `  pair ${i + 1} (${i % 2 === 0 ? "forge" : "ccusage"} first): forge scan ${scan(f)} ` +
        `(process ${s(f.wall)} s, ${s(f.cpu)} s cpu) | plain scan ${scan(p)} | read floor ` +
        `${s(r.wall)} s, ${s(r.cpu)} s cpu | search floor ${s(g.wall)} s, ${s(g.cpu)} s cpu | ` +
        `line floor ${s(l.wallMs / 1000)} s, ${s(l.cpuMs / 1000)} s cpu | ` +
        `ccusage ${s(c.wall)} s, ${s(c.cpu)} s cpu`,
    );
  }
  const f = forge[0].m, c = cc[0];
  const untiered = JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", new URL(import.meta.url).pathname, "--no-tier", pool],
        stdout: "piped",
      }).output()).stdout,
    ),
  ) as Untiered;
  const cold = [...forge, ...plain, ...floor, ...search, ...lines].every((r) => r.cold)
    ? "dropped before every arm"
    : "WARM";
  const ms = (xs: number[]) => spread(xs.map((x) => x / 1000));
  console.log(`page cache: ${cold}; ${PAIRS} pairs, median (range), seconds`);
  console.log(
    `  forge first scan, in process: wall ${ms(forge.map((r) => r.m.coldMs))}, cpu ${
      ms(forge.map((r) => r.m.coldCpuMs))
    }; again with nothing changed ${spread(forge.map((r) => r.m.warmMs), 1)} ms`,
  );
  const turns = forge.map((r) => r.m.turn);
  console.log(
    `  again after a turn appended to the ${turns[0].appended} longest transcripts (they hold ${
      (turns[0].bytesHeld / 2 ** 20).toFixed(1)
    } MiB): ${spread(turns.map((t) => t.ms), 0)} ms, ${
      spread(turns.map((t) => t.bytesRead / 1024), 1)
    } KiB read, the report ${turns[0].report}; the count held: ${turns.every((t) => t.sameCount)}`,
  );
  console.log(
    `  plain reader's first scan: wall ${ms(plain.map((r) => r.m.coldMs))}, cpu ${
      ms(plain.map((r) => r.m.coldCpuMs))
    }`,
  );
  console.log(
    `  read floor (${FLOOR_READERS} cat, nothing parsed): wall ${
      spread(floor.map((r) => r.wall))
    }, cpu ${spread(floor.map((r) => r.cpu))}`,
  );
  console.log(
    `  search floor (${FLOOR_READERS} grep of "usage", nothing parsed): wall ${
      spread(search.map((r) => r.wall))
    }, cpu ${spread(search.map((r) => r.cpu))}`,
  );
  const messages = f.total.messages;
  const beyond = forge.map((r, i) => r.m.coldCpuMs - lines[i].cpuMs);
  console.log(
    `  line floor (forge's own search of every byte, ${lines[0].hits} newlines and keys found, ` +
      `nothing parsed): wall ${ms(lines.map((r) => r.wallMs))}, cpu ${
        ms(lines.map((r) => r.cpuMs))
      }; forge's first scan beyond it: ${ms(beyond)} s of CPU for ${messages} messages, ${
        spread(beyond.map((x) => (x * 1000) / messages), 1)
      } us a message`,
  );
  console.log(
    `  forge process: wall ${spread(forge.map((r) => r.wall))}, cpu ${
      spread(forge.map((r) => r.cpu))
    }; ccusage process: wall ${spread(cc.map((r) => r.wall))}, cpu ${spread(cc.map((r) => r.cpu))}`,
  );
  console.log(
    `  forge peak RSS ${spread(forge.map((r) => r.m.peakRssMiB), 0)} MiB; moved: ${
      f.files[0]
    } files read, then ${f.files[1]} read / ${f.files[2]} reused, ${f.skipped} torn lines ` +
      `skipped; the pool holds ${f.total.messages} API messages`,
  );
  const per = (a: number[], b: number[]) => a.map((x, i) => x / b[i]);
  const wallFloor = per(forge.map((r) => r.m.coldMs / 1000), floor.map((r) => r.wall));
  const cpuFloor = per(forge.map((r) => r.m.coldCpuMs / 1000), floor.map((r) => r.cpu));
  // The search floor over the read floor, pair by pair: what looking at every byte adds.
  const searchWall = per(search.map((r) => r.wall), floor.map((r) => r.wall));
  const searchCpu = per(search.map((r) => r.cpu), floor.map((r) => r.cpu));
  const lineCpu = per(lines.map((r) => r.cpuMs / 1000), floor.map((r) => r.cpu));
  goal(
    "usage first scan in process vs the read floor, wall",
    median(wallFloor) <= 1.3,
    `${spread(wallFloor)}x; forge ${ms(forge.map((r) => r.m.coldMs))} s, the read floor ${
      spread(floor.map((r) => r.wall))
    } s; the search floor ${spread(searchWall)}x the read floor`,
    "<= 1.3x the 8 cats' wall",
  );
  goal(
    "usage first scan in process vs the read floor, CPU",
    median(cpuFloor) <= 1.5,
    `${spread(cpuFloor)}x; forge ${ms(forge.map((r) => r.m.coldCpuMs))} s, the read floor ${
      spread(floor.map((r) => r.cpu))
    } s; the search floor ${spread(searchCpu)}x the read floor, the line floor ${spread(lineCpu)}x`,
    "<= 1.5x the 8 cats' CPU",
  );
  const ccWall = per(cc.map((r) => r.wall), forge.map((r) => r.wall));
  const ccCpu = per(cc.map((r) => r.cpu), forge.map((r) => r.cpu));
  goal(
    "usage, a fresh process vs ccusage, wall",
    median(ccWall) >= 2,
    `ccusage/forge ${spread(ccWall)}x`,
    ">= 2x faster",
  );
  goal(
    "usage, a fresh process vs ccusage, CPU",
    median(ccCpu) >= 2,
    `ccusage/forge ${spread(ccCpu)}x`,
    ">= 2x less",
  );
  const plainCpu = per(plain.map((r) => r.m.coldCpuMs), forge.map((r) => r.m.coldCpuMs));
  const plainWall = per(plain.map((r) => r.m.coldMs), forge.map((r) => r.m.coldMs));
  goal(
    "usage WebAssembly reader vs a plain TypeScript scan, CPU",
    median(plainCpu) >= 1.3,
    `plain/WebAssembly ${spread(plainCpu)}x CPU, ${spread(plainWall)}x wall`,
    ">= 1.3x, or the WebAssembly walker goes",
  );
  compareTotals(f, c, untiered);
} finally {
  if (Deno.args.includes("--keep") && !given) console.log(`kept ${tmp}`);
  else if (!given) await Deno.remove(tmp, { recursive: true });
}
finishGoals();
