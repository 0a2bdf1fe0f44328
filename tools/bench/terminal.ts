/**
 * Terminal bench (issue 14 item 6): a burst of output through forge's terminal to N real socket
 * viewers against the same burst read from a PTY alone, in paired, interleaved arms.
 *
 *   tools/deno.sh task bench terminal [--mb 5] [--pairs 7] [--viewers 5]
 *     [--forge-flags "--cpu-prof --cpu-prof-dir=/tmp/prof"]
 *
 * The burst is `cat` of `--mb` MiB of base64 lines (written once, the same file for every arm)
 * in a bash at 80x24. The PTY arm reads it with node-pty in this process; the forge arm runs
 * forge as its own process (`main.ts`), its viewers are WebSocket clients in this process that
 * decode kind-4 frames, and its time ends when the LAST viewer has the end marker. Each arm's
 * bytes between the markers are compared with what the shell wrote ("\n" as "\r\n"): an arm
 * that dropped, reordered or duplicated a byte, or skipped a sequence, fails the bench rather
 * than looking fast. CPU is each process's threads' scheduler time over the arm.
 *
 * After each pair a late viewer attaches; its time until it holds the newest sequence (screen
 * plus any tail of frames) is printed, and what it draws must equal a replay of everything the
 * first viewer was sent since it attached.
 */
import { parseArgs } from "node:util";
import { type ArmResult, expectedBytes, rawPty } from "./support/terminal_arms.ts";
import { forgeTerminal, Viewer } from "./support/terminal_forge.ts";
import { drawn, Replay } from "./support/terminal_draw.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    mb: { type: "string", default: "5" },
    pairs: { type: "string", default: "7" },
    viewers: { type: "string", default: "5" },
    "forge-flags": { type: "string", default: "" },
  },
});
const MB = Number(values.mb);
const PAIRS = Number(values.pairs);
const VIEWERS = Number(values.viewers);
const forgeFlags = String(values["forge-flags"]).split(" ").filter(Boolean);

const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const mb = (n: number) => (n / 1e6).toFixed(2);
const spread = (xs: number[], digits = 2) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(digits);
  return `${f(s[Math.floor(s.length / 2)])} (${f(s[0])}..${f(s.at(-1)!)})`;
};

function describe(r: ArmResult): string {
  const same = r.bytes.every((b) => b === r.bytes[0]);
  const each = same ? `${mb(r.bytes[0])} MB` : r.bytes.map(mb).join("/") + " MB";
  const frames = `${Math.min(...r.frames)}..${Math.max(...r.frames)} frames`;
  const cpu = r.bytes.length > 1
    ? `forge cpu ${r.cpu.reader.toFixed(0)} ms, clients cpu ${r.cpu.here.toFixed(0)} ms`
    : `cpu ${r.cpu.here.toFixed(0)} ms`;
  return `${r.ms.toFixed(0)} ms, ${r.bytes.length > 1 ? `each of ${r.bytes.length} ` : ""}` +
    `${each} in ${frames}, ${cpu}${r.wrong ? ` WRONG: ${r.wrong}` : ""}`;
}

/** A late viewer: attaches, waits until it holds `seq`, and is compared with the replay. */
async function lateViewer(url: string, seq: number, replay: Replay) {
  const t0 = performance.now();
  const late = await Viewer.attach(url, true);
  while (late.lastSeq !== seq) {
    if (performance.now() - t0 > 60_000) throw new Error(`late viewer stuck at ${late.lastSeq}`);
    await new Promise((r) => setTimeout(r, 1));
  }
  const ms = performance.now() - t0;
  await late.close();
  const want = JSON.stringify(replay.drawn());
  const exact = JSON.stringify(await drawn(late.drain())) === want;
  return { ms, tail: late.frameBytes, exact };
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
  const forge = await forgeTerminal(dir, VIEWERS, forgeFlags).catch(async (e) => {
    await raw.close();
    throw e;
  });
  // What the first viewer was sent since it attached, fed outside the timed arms.
  const replay = new Replay();
  try {
    // One unmeasured burst each: JIT warm-up for node-pty's reader and the screen model's parser.
    await raw.burst(file, expected);
    await forge.burst(file, expected);
    const ratios: number[] = [];
    const rates = { raw: [] as number[], forge: [] as number[] };
    const lates: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      // ABAB, with the order flipped every other pair so neither arm always runs second.
      const rawFirst = i % 2 === 0;
      const a = await (rawFirst ? raw : forge).burst(file, expected);
      const b = await (rawFirst ? forge : raw).burst(file, expected);
      const [r, f] = rawFirst ? [a, b] : [b, a];
      // The shell's prompt follows the marker: wait until the stream is still, then replay it.
      const first = forge.viewers[0];
      for (let seen = -1; seen !== first.frameBytes;) {
        seen = first.frameBytes;
        await new Promise((r) => setTimeout(r, 100));
      }
      await replay.feed(first.drain());
      const late = await lateViewer(forge.url, forge.viewers[0].lastSeq, replay);
      if (r.wrong || f.wrong || !late.exact) failed = true;
      ratios.push(r.ms / f.ms);
      rates.raw.push(expected.length / 1e3 / r.ms);
      rates.forge.push(expected.length / 1e3 / f.ms);
      lates.push(late.ms);
      console.log(
        `  pair ${i + 1} (${rawFirst ? "pty" : "forge"} first): pty ${describe(r)} | ` +
          `forge ${describe(f)} | ratio ${(r.ms / f.ms).toFixed(2)} | late viewer current in ` +
          `${late.ms.toFixed(0)} ms (${mb(late.tail)} MB of tail after its screen), ` +
          `${late.exact ? "draws exactly the replay" : "DIFFERS FROM THE REPLAY"} | load ${load()}`,
      );
    }
    console.log(
      `pty alone MB/s: ${spread(rates.raw)}; forge to ${VIEWERS} viewers MB/s: ` +
        `${spread(rates.forge)}`,
    );
    console.log(
      `ratio forge/pty (pty ms / forge ms), median (range) over ${PAIRS} pairs: ` +
        `${spread(ratios)}`,
    );
    console.log(`late viewer current after a burst, ms: ${spread(lates, 0)}`);
  } finally {
    replay.dispose();
    await raw.close();
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
