/**
 * Terminal bench: a burst of output through forge's terminal to N real socket
 * viewers against the same burst read from a PTY alone and through a bare relay, in paired,
 * interleaved arms. Goal: forge at least 0.9x the bare relay's throughput (the median of the
 * paired ratios, bare ms / forge ms).
 *
 *   tools/deno.sh task bench terminal [--mb 5] [--pairs 15] [--viewers 5] [--late 3] [--keys 200]
 *     [--forge-flags "--cpu-prof --cpu-prof-dir=prof"] [--bare-flags "--cpu-prof ..."]
 *
 * The burst is `cat` of `--mb` MiB of base64 lines (written once, the same file for every arm)
 * in a bash at 80x24. The PTY arm reads it with node-pty in this process; the forge arm runs
 * forge as its own process (`main.ts`), its viewers are WebSocket clients in this process that
 * decode kind-4 frames, and its time ends when the LAST viewer has the end marker. Between them,
 * a bare relay (support/terminal_bare.ts: node-pty, forge's read coalescer and `Deno.serve`
 * WebSockets, nothing else) to as many viewers: what relaying costs on this machine at all, so a
 * forge/pty ratio can be read against a bare/pty one. Each arm's
 * bytes between the markers are compared with what the shell wrote ("\n" as "\r\n"): an arm
 * that dropped, reordered or duplicated a byte, skipped a sequence, or sent a viewer a fresh
 * screen in place of bytes (a viewer that fell behind, spec: binary kind 4) fails the bench
 * rather than looking fast. CPU is each process's threads' scheduler time over the arm; the
 * machine's busy share (/proc/stat) says whether the arm was CPU-bound.
 *
 * Before each arm forge is let go still: it parses a burst after relaying it, and the CPU that
 * costs is printed beside the forge arm as the model catching up. After the pairs: keystroke to
 * echo at a bash prompt, PTY alone and through forge (a kind-5 frame in, its echo as kind 4), in
 * interleaved blocks; then `--late` times a viewer attaches the moment a burst has reached the
 * others: its time until it holds the newest sequence (screen plus any tail of frames) is
 * printed, and what it draws must equal a replay of everything the first viewer was sent.
 */
import { parseArgs } from "node:util";
import { type ArmResult, cpuMs, expectedBytes, rawPty, still } from "./support/terminal_arms.ts";
import { forgeTerminal, Viewer } from "./support/terminal_forge.ts";
import { drawn, Replay } from "./support/terminal_draw.ts";
import { bareRelay } from "./support/terminal_bare.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { median, spread } from "./support/stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    mb: { type: "string", default: "5" },
    pairs: { type: "string", default: "15" },
    viewers: { type: "string", default: "5" },
    late: { type: "string", default: "3" },
    keys: { type: "string", default: "200" },
    "forge-flags": { type: "string", default: "" },
    "bare-flags": { type: "string", default: "" },
  },
});
const MB = Number(values.mb);
const PAIRS = Number(values.pairs);
const VIEWERS = Number(values.viewers);
const LATE = Number(values.late);
const KEYS = Number(values.keys);
const forgeFlags = String(values["forge-flags"]).split(" ").filter(Boolean);
const bareFlags = String(values["bare-flags"]).split(" ").filter(Boolean);

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const mb = (n: number) => (n / 1e6).toFixed(2);

/** One arm's line; `server` names the relaying process (null for the PTY read alone). */
function describe(r: ArmResult, server: string | null): string {
  const same = r.bytes.every((b) => b === r.bytes[0]);
  const each = same ? `${mb(r.bytes[0])} MB` : r.bytes.map(mb).join("/") + " MB";
  const frames = `${Math.min(...r.frames)}..${Math.max(...r.frames)} frames`;
  const cpu = server
    ? `${server} cpu ${r.cpu.reader.toFixed(0)} ms, clients cpu ${r.cpu.here.toFixed(0)} ms`
    : `cpu ${r.cpu.here.toFixed(0)} ms`;
  const m = r.machineBusy;
  const busy = `machine ${(100 * m.busy).toFixed(0)}% busy` +
    (m.stolenMs > 0 ? ` (${m.stolenMs} ms stolen by the host)` : "");
  return `${r.ms.toFixed(0)} ms, ${server ? `each of ${r.bytes.length} viewers ` : ""}` +
    `${each} in ${frames}, ${cpu}, ${busy}${r.wrong ? ` WRONG: ${r.wrong}` : ""}`;
}

/** Waits until `viewer` has been sent nothing for 100 ms (the shell's prompt follows a burst). */
async function stillStream(viewer: Viewer): Promise<void> {
  for (let seen = -1; seen !== viewer.frameBytes;) {
    seen = viewer.frameBytes;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A late viewer attached the moment a burst has reached the viewers, while forge's model still
 * trails it: the time until it holds the newest sequence, the tail of frames it got after its
 * screen, and whether it then draws exactly what the first viewer's replay draws.
 */
async function lateViewer(forge: Forge, file: string, expected: Uint8Array, replay: Replay) {
  await still(forge.pid);
  let t0 = 0;
  let late: Viewer | undefined;
  const burst = await forge.burst(file, expected, async () => {
    t0 = performance.now();
    late = await Viewer.attach(forge.url, true);
  });
  if (!late) throw new Error("the late viewer never attached");
  const first = forge.viewers[0];
  await stillStream(first);
  await replay.feed(first.drain());
  while (late.lastSeq !== first.lastSeq) {
    if (performance.now() - t0 > 60_000) throw new Error(`late viewer stuck at ${late.lastSeq}`);
    await new Promise((r) => setTimeout(r, 1));
  }
  const ms = late.lastAt - t0;
  await late.close();
  const exact = JSON.stringify(await drawn(late.drain())) === JSON.stringify(replay.drawn());
  return { ms, tail: late.frameBytes, exact, wrong: burst.wrong };
}

type Forge = Awaited<ReturnType<typeof forgeTerminal>>;

/** Keystroke-to-echo, PTY alone and through forge, in four interleaved blocks. */
async function keystrokes(raw: Awaited<ReturnType<typeof rawPty>>, forge: Forge) {
  const times = { raw: [] as number[], forge: [] as number[] };
  for (let block = 0; block < 4; block++) {
    await still(forge.pid);
    const arm = block % 2 === 0 ? "raw" : "forge";
    times[arm].push(...await (arm === "raw" ? raw : forge).echo(Math.ceil(KEYS / 2)));
  }
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
  for (const arm of ["raw", "forge"] as const) {
    const xs = times[arm];
    console.log(
      `keystroke to echo, ${arm === "raw" ? "pty alone" : "forge, a socket viewer"} ` +
        `(${xs.length} keys): p50 ${pct(xs, 0.5).toFixed(2)} ms, p99 ${
          pct(xs, 0.99).toFixed(2)
        } ms`,
    );
  }
}

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-terminal-bench-" }));
let failed = false;
try {
  const file = `${dir}/burst.txt`;
  const make = `head -c ${MB}M /dev/urandom | base64 > ${file}`;
  await new Deno.Command("bash", { args: ["-c", make] }).output();
  const expected = expectedBytes(await Deno.readFile(file));
  console.log(
    `burst: cat of ${MB} MiB of base64 lines = ${mb(expected.length)} MB through the PTY at ` +
      `80x24; ${VIEWERS} viewers; ${PAIRS} pairs; load before ${load()}`,
  );
  const raw = await rawPty(dir, { PS1: "$ ", HISTFILE: "/dev/null" });
  const bare = await bareRelay(dir, VIEWERS, bareFlags);
  const forge = await forgeTerminal(dir, VIEWERS, forgeFlags).catch(async (e) => {
    await raw.close();
    await bare.close();
    throw e;
  });
  // What the first viewer was sent since it attached, fed outside the timed arms.
  const replay = new Replay();
  try {
    // One unmeasured burst each: JIT warm-up for node-pty's reader and the screen model's parser.
    await raw.burst(file, expected);
    await bare.burst(file, expected);
    await forge.burst(file, expected);
    const ratios: number[] = [];
    const bareRatios: number[] = [];
    const overBare: number[] = [];
    const rates = { raw: [] as number[], bare: [] as number[], forge: [] as number[] };
    for (let i = 0; i < PAIRS; i++) {
      // pty, bare, forge; then forge, bare, pty: no arm always runs first or last.
      const rawFirst = i % 2 === 0;
      await still(forge.pid);
      // After forge's arm, forge is let go still and what that cost is the model catching up.
      let parse = 0;
      const forgeArm = async () => {
        const result = await forge.burst(file, expected);
        await still(forge.pid);
        parse = cpuMs(forge.pid) - result.readerCpuAtEnd;
        return result;
      };
      const bareArm = async () => {
        const result = await bare.burst(file, expected);
        await still(bare.pid);
        return result;
      };
      const a = await (rawFirst ? raw.burst(file, expected) : forgeArm());
      const b = await bareArm();
      const c = await (rawFirst ? forgeArm() : raw.burst(file, expected));
      const [r, f] = rawFirst ? [a, c] : [c, a];
      if (r.wrong || b.wrong || f.wrong) failed = true;
      ratios.push(r.ms / f.ms);
      bareRatios.push(r.ms / b.ms);
      overBare.push(b.ms / f.ms);
      rates.raw.push(expected.length / 1e3 / r.ms);
      rates.bare.push(expected.length / 1e3 / b.ms);
      rates.forge.push(expected.length / 1e3 / f.ms);
      console.log(
        `  pair ${i + 1} (${rawFirst ? "pty" : "forge"} first): pty ${describe(r, null)} | ` +
          `bare relay ${describe(b, "relay")} | ` +
          `forge ${describe(f, "forge")}, then ${
            parse.toFixed(0)
          } ms cpu as the model caught up | ` +
          `ratio ${(r.ms / f.ms).toFixed(2)}, bare ${(r.ms / b.ms).toFixed(2)}, forge/bare ${
            (b.ms / f.ms).toFixed(2)
          } | load ${load()}`,
      );
      // Outside the timed arms: the replay of what the first viewer was sent.
      await stillStream(forge.viewers[0]);
      await replay.feed(forge.viewers[0].drain());
    }
    console.log(
      `pty alone MB/s: ${spread(rates.raw)}; bare relay to ${VIEWERS} viewers MB/s: ` +
        `${spread(rates.bare)}; forge to ${VIEWERS} viewers MB/s: ${spread(rates.forge)}`,
    );
    console.log(
      `ratio bare relay/pty (pty ms / bare ms), median (range) over ${PAIRS} pairs: ` +
        `${spread(bareRatios)}`,
    );
    console.log(
      `ratio forge/pty (pty ms / forge ms), median (range) over ${PAIRS} pairs: ` +
        `${spread(ratios)}`,
    );
    goal(
      `terminal burst to ${VIEWERS} viewers, forge vs the bare relay`,
      median(overBare) >= 0.9,
      `${spread(overBare)}x (bare ms / forge ms); forge ${spread(rates.forge)} MB/s, the bare ` +
        `relay (the floor) ${spread(rates.bare)} MB/s, the PTY alone ${spread(rates.raw)} MB/s`,
      ">= 0.9x the bare node-pty relay",
    );
    if (KEYS > 0) await keystrokes(raw, forge);
    for (let i = 0; i < LATE; i++) {
      const late = await lateViewer(forge, file, expected, replay);
      if (late.wrong || !late.exact) failed = true;
      console.log(
        `  late viewer attached as a burst ends: current in ${late.ms.toFixed(0)} ms, ` +
          `${mb(late.tail)} MB of tail after its screen, ` +
          (late.exact ? "draws exactly the replay" : "DIFFERS FROM THE REPLAY") +
          (late.wrong ? `; burst WRONG: ${late.wrong}` : ""),
      );
    }
  } finally {
    replay.dispose();
    await raw.close();
    await bare.close();
    await forge.close();
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
console.log(`load after ${load()}`);
if (failed) {
  console.error(
    "terminal bench: an arm moved other bytes than the shell wrote, or a late " +
      "viewer's repaint differed (see WRONG / DIFFERS above)",
  );
  Deno.exit(1);
}
finishGoals();
