/**
 * Plugins bench: the extensions inventory's disk scan against the CLI's own inventory read
 * (`claude plugin list --json`, what the original spawned), for 1, 20 and 200 installed plugins,
 * and the cost of a rescan when nothing changed.
 *
 *   tools/deno.sh run --allow-all tools/bench/plugins.ts [--sizes 1,20,200] [--runs 7] [--fresh]
 *     [--keep]
 *
 * The plugins root is made by the REAL CLI ($FORGE_CLAUDE_BIN): one local directory marketplace
 * whose plugins each carry a skill, a command, an agent, a hook and an MCP server, every one
 * installed with `claude plugin install` into one root grown size by size (0.3-1 s a call, so the
 * 200 installs take one to four minutes).
 * The roots are the bench's setup, not its figures, so they are made once and kept for the next
 * run: one root per size under the system temp dir (`forge-bench-plugins/<key>/n<N>-of<max>`,
 * the key the CLI's version and the marketplace the fixture writes), each marked done once every
 * install landed, a half-made one made again; two runs at once make each root once (a lock
 * beside it). `--fresh` makes them in a temp dir removed after, as one root grown size by size;
 * `--keep` then keeps it.
 * Arms, alternating run by run: (a) a fresh process that scans once (its wall time, the scan's
 * own time inside it, and the process's peak RSS); (b) `claude plugin list --json` (wall time,
 * peak RSS). Peak RSS is VmHWM read from /proc while the process runs. Then, in this process, the
 * scan warm and the InventoryKeeper's no-change rescan (scan + compare, no frame emitted).
 */
import { join } from "node:path";
import { tmpdir } from "node:os";
import { median } from "./support/stats.ts";
import { InventoryKeeper } from "../../subsystems/plugins/inventory.ts";
import { scanInventory } from "../../subsystems/plugins/scan.ts";
import { writeMarketplace } from "../../tests/plugins_fixture.ts";
import { booleanFlag, stringFlag } from "./support/flags.ts";

if (Deno.args[0] === "--scan-once") {
  const t0 = performance.now();
  const inv = await scanInventory(Deno.args[1], Deno.env.get("PATH") ?? "");
  const ms = performance.now() - t0;
  console.log(
    JSON.stringify({ ms, rows: inv.snapshot.installed.length, bytes: JSON.stringify(inv).length }),
  );
  Deno.exit(0);
}

const CLAUDE = Deno.env.get("FORGE_CLAUDE_BIN");
if (!CLAUDE) throw new Error("FORGE_CLAUDE_BIN is unset: run through tools/deno.sh");
const SIZES = stringFlag("sizes", "1,20,200").split(",").map(Number);
const RUNS = Number(stringFlag("runs", "7"));
const env = (cfg: string) => ({
  ...Deno.env.toObject(),
  CLAUDE_CONFIG_DIR: cfg,
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
});

/** Runs a process to its end, sampling its peak RSS (VmHWM) from /proc; wall ms, KiB, stdout. */
async function measured(cmd: string, args: string[], cfg: string) {
  const t0 = performance.now();
  const child = new Deno.Command(cmd, {
    args,
    env: env(cfg),
    cwd: cfg,
    stdout: "piped",
    stderr: "null",
  })
    .spawn();
  let peak = 0;
  let done = false;
  const out = child.output().finally(() => done = true);
  while (!done) {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${child.pid}/status`));
      if (m) peak = Math.max(peak, Number(m[1]));
    } catch { /* exited */ }
    await new Promise((r) => setTimeout(r, 2));
  }
  const o = await out;
  if (!o.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return { ms: performance.now() - t0, kib: peak, stdout: new TextDecoder().decode(o.stdout) };
}

async function cli(cfg: string, ...args: string[]) {
  const o = await new Deno.Command(CLAUDE!, {
    args,
    env: env(cfg),
    cwd: cfg,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!o.success) {
    throw new Error(`claude ${args.join(" ")}: ${new TextDecoder().decode(o.stderr)}`);
  }
}

const range = (xs: number[], d = 0) =>
  `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})`;

const FRESH = booleanFlag("--fresh");
const root = FRESH
  ? await Deno.makeTempDir({ prefix: "forge-bench-plugins-" })
  : join(tmpdir(), "forge-bench-plugins", await cacheKey());
const self = new URL(import.meta.url).pathname;
const maxN = Math.max(...SIZES);
const names = Array.from({ length: maxN }, (_, i) => `p${String(i).padStart(3, "0")}`);
const specs = names.map((name) => ({ name, version: "1.0.0", full: true }));
let have = 0;
/** The plugins root holding the first `n` plugins, made by the real CLI. */
async function rootOf(n: number): Promise<string> {
  if (FRESH) {
    // One plugins root grown size by size: each size installs only the plugins it adds.
    const cfg = `${root}/cfg`;
    if (have === 0) {
      await writeMarketplace(`${root}/src`, "bench", specs);
      await Deno.mkdir(cfg, { recursive: true });
      await cli(cfg, "plugin", "marketplace", "add", `${root}/src`);
    }
    for (const name of names.slice(have, n)) await cli(cfg, "plugin", "install", `${name}@bench`);
    have = n;
    return cfg;
  }
  // The marketplace offers all `maxN` plugins at every size, as the grown root's does.
  const dir = `${root}/n${n}-of${maxN}`;
  const cfg = `${dir}/cfg`;
  await onceAcrossRuns(dir, async () => {
    const t0 = performance.now();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await writeMarketplace(`${dir}/src`, "bench", specs);
    await Deno.mkdir(cfg, { recursive: true });
    await cli(cfg, "plugin", "marketplace", "add", `${dir}/src`);
    for (const name of names.slice(0, n)) await cli(cfg, "plugin", "install", `${name}@bench`);
    await Deno.writeTextFile(`${dir}/done`, "");
    console.log(`     | made the root of ${n} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  });
  return cfg;
}

/**
 * Makes the kept root `dir` unless it is done, one bench run at a time: a second run started
 * meanwhile waits for the first's root rather than removing it half-made. The maker's pid is in
 * `dir.lock`; a lock whose maker is gone is taken over.
 */
async function onceAcrossRuns(dir: string, make: () => Promise<void>): Promise<void> {
  const lock = `${dir}.lock`;
  await Deno.mkdir(root, { recursive: true });
  while (!(await exists(`${dir}/done`))) {
    try {
      await Deno.writeTextFile(lock, String(Deno.pid), { createNew: true });
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
      const pid = Number(await Deno.readTextFile(lock).catch(() => ""));
      // An empty lock is one being written; a pid with no process left its root half-made.
      if (pid > 0 && !(await exists(`/proc/${pid}`))) await Deno.remove(lock).catch(() => {});
      else await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    try {
      if (!(await exists(`${dir}/done`))) await make();
    } finally {
      await Deno.remove(lock);
    }
  }
}

try {
  console.log(
    `plugins roots made by the real CLI (${CLAUDE.split("/").at(-1)}) ${
      FRESH ? "now" : `once, kept in ${root}`
    }; ${RUNS} runs per arm, interleaved`,
  );
  console.log(
    "N    | forge scan process: wall ms, scan ms, peak RSS MiB | claude plugin list --json: wall ms, peak RSS MiB | installed rows, KiB of JSON (forge/cli)",
  );
  for (const n of [...SIZES].sort((x, y) => x - y)) {
    const cfg = await rootOf(n);
    const a = {
      wall: [] as number[],
      scan: [] as number[],
      kib: [] as number[],
      rows: 0,
      bytes: 0,
    };
    const b = { wall: [] as number[], kib: [] as number[], rows: 0, bytes: 0 };
    for (let i = 0; i < RUNS; i++) {
      const fa = await measured(Deno.execPath(), ["run", "-A", self, "--scan-once", cfg], cfg);
      const inner = JSON.parse(fa.stdout);
      a.wall.push(fa.ms), a.scan.push(inner.ms), a.kib.push(fa.kib);
      [a.rows, a.bytes] = [inner.rows, inner.bytes];
      const fb = await measured(CLAUDE, ["plugin", "list", "--json"], cfg);
      b.wall.push(fb.ms), b.kib.push(fb.kib), b.bytes = fb.stdout.length;
      b.rows = (JSON.parse(fb.stdout) as { id: string }[]).filter((r) =>
        !r.id.endsWith("@builtin")
      ).length;
    }
    const mib = (xs: number[]) => xs.map((k) => k / 1024);
    console.log(
      `${String(n).padEnd(4)} | ${range(a.wall)}, ${range(a.scan, 1)}, ${range(mib(a.kib), 1)} | ` +
        `${range(b.wall)}, ${range(mib(b.kib), 1)} | ${a.rows}/${b.rows} | ` +
        `${(a.bytes / 1024).toFixed(1)}/${(b.bytes / 1024).toFixed(1)}`,
    );
    // In this process: the warm scan, and the keeper's rescan when nothing moved.
    let emitted = 0;
    const keeper = new InventoryKeeper({
      configDir: () => cfg,
      claudePath: () => CLAUDE,
      pathEnv: () => Deno.env.get("PATH") ?? "",
      emit: () => emitted++,
      warn: () => {},
    });
    await keeper.refresh("manual");
    const warm: number[] = [];
    const rescan: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      await scanInventory(cfg, Deno.env.get("PATH") ?? "");
      warm.push(performance.now() - t0);
      t0 = performance.now();
      await keeper.refresh("manual");
      rescan.push(performance.now() - t0);
    }
    const warmLine = `warm scan in-process ${range(warm, 1)} ms`;
    const rescanLine = `no-change rescan ${range(rescan, 1)} ms, ${emitted} frames emitted`;
    console.log(`     | ${warmLine}; ${rescanLine}`);
  }
} finally {
  if (FRESH && !booleanFlag("--keep")) await Deno.remove(root, { recursive: true });
  else if (FRESH) console.log(`kept ${root}`);
}

/**
 * What the kept roots depend on: the CLI's version, and the marketplace the fixture writes (its
 * source text), so a new CLI or a changed fixture makes them again.
 */
async function cacheKey(): Promise<string> {
  const version = await new Deno.Command(CLAUDE!, { args: ["--version"], stdout: "piped" })
    .output();
  const fixture = await Deno.readTextFile(
    new URL("../../tests/plugins_fixture.ts", import.meta.url),
  );
  const bytes = new TextEncoder().encode(new TextDecoder().decode(version.stdout) + fixture);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false; // not there (or unreadable): made again
  }
}
