/**
 * Dictation bench: what a take costs the server.
 *
 *   tools/deno.sh run --allow-all tools/bench/dictate.ts [--runs 5]
 *
 * - per-frame VAD cost: one 20 ms frame through Silero (buffered to 512-sample windows and
 *   scored) vs the level meter alone, interleaved per take;
 * - stop-to-words: a 3 s and a 15 s take (flite rms speech), from dictate_stop to the words, on
 *   forge's decode Worker vs the same PocketSphinx decode inline on the event loop (the baseline);
 * - the event loop's worst stall while the take decodes, both arms (a 1 ms timer's lateness), and
 *   with nothing decoding for as long (the machine's own scheduling noise on a shared box);
 * - RTF (decode time / audio time) and the RSS the engine adds, per engine. whisper.cpp has no
 *   model here unless one is installed: its arm says so rather than inventing a number.
 */
import { median } from "./support/stats.ts";
import {
  PocketSphinxDecoder,
  PS_MODEL_DIR,
} from "../../subsystems/dictate/engines/pocketsphinx_ffi.ts";
import { WorkerPool } from "../../subsystems/dictate/engines/pool.ts";
import { SileroVad } from "../../subsystems/dictate/vad.ts";
import { flite } from "../../tests/dictate_audio.ts";
import { numberFlag } from "./support/flags.ts";

const RUNS = numberFlag("runs", 5);
console.log(
  `load average ${
    Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
  } on ${navigator.hardwareConcurrency} cores`,
);
const RATE = 16_000;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const range = (xs: number[], digits = 1) =>
  `median ${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}..${
    Math.max(...xs).toFixed(digits)
  })`;
const mib = (b: number) => (b / 1024 / 1024).toFixed(0);

/** A take of exactly `seconds`, made of flite sentences (0.5 s pads between them). */
async function take(seconds: number): Promise<Int16Array> {
  const lines = [
    "push the branch to origin",
    "build the project and report any warnings",
    "create a new branch called feature search",
    "explain what this error means",
    "delete the unused imports",
    "install the dependencies",
    "close the terminal",
    "run the tests",
  ];
  const out = new Int16Array(seconds * RATE);
  let at = 0;
  for (let i = 0; at < out.length; i++) {
    const s = await flite(lines[i % lines.length]);
    out.set(s.subarray(0, Math.min(s.length, out.length - at)), at);
    at += s.length;
  }
  return out;
}

/** Runs `work` while a 1 ms timer measures how late the event loop lets it fire. */
async function withStallMeter<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  try {
    await new Promise((r) => setTimeout(r, 5));
    last = performance.now();
    const value = await work();
    await new Promise((r) => setTimeout(r, 5));
    return { value, stallMs: Math.max(0, worst) };
  } finally {
    clearInterval(timer);
  }
}

// ---- VAD per frame -----------------------------------------------------------------------------
const vad = await SileroVad.load();
const fifteen = await take(15);
const vadMs: number[] = [];
const meterMs: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const stream = vad.stream();
  let peak = 0;
  for (let o = 0; o + 320 <= fifteen.length; o += 320) {
    const frame = fifteen.subarray(o, o + 320);
    // Arm 1: the meter alone (what every frame costs without a VAD).
    let t = performance.now();
    for (const s of frame) peak = Math.max(peak, s < 0 ? -s : s);
    meterMs.push(performance.now() - t);
    // Arm 2: the meter's work plus the VAD's: buffer, and score any full window.
    t = performance.now();
    for (const s of frame) peak = Math.max(peak, s < 0 ? -s : s);
    stream.feed(frame);
    await stream.settle();
    vadMs.push(performance.now() - t);
  }
}
console.log(`per 20 ms frame (${vadMs.length / RUNS} frames x ${RUNS} runs)`);
console.log(
  `  meter alone      p50 ${median(meterMs).toFixed(3)} ms  p99 ${
    pct(meterMs, 0.99).toFixed(3)
  } ms`,
);
console.log(
  `  meter + Silero   p50 ${median(vadMs).toFixed(3)} ms  p99 ${
    pct(vadMs, 0.99).toFixed(3)
  } ms  max ${Math.max(...vadMs).toFixed(2)} ms`,
);

// ---- stop to words, stall, RTF, RSS ------------------------------------------------------------
const rss0 = Deno.memoryUsage().rss;
const pool = new WorkerPool({ engine: "pocketsphinx", path: PS_MODEL_DIR }, 1);
let t0 = performance.now();
await pool.ready();
const poolLoad = performance.now() - t0;
const rss1 = Deno.memoryUsage().rss;
t0 = performance.now();
const inline = new PocketSphinxDecoder();
const inlineLoad = performance.now() - t0;
const rss2 = Deno.memoryUsage().rss;

for (const seconds of [3, 15]) {
  const pcm = seconds === 15 ? fifteen : await take(3);
  const worker = { latency: [] as number[], stall: [] as number[] };
  const onLoop = { latency: [] as number[], stall: [] as number[] };
  // The machine's own noise: the same wait with nothing decoding anywhere.
  const idle = { stall: [] as number[] };
  let words = "";
  for (let r = 0; r < RUNS; r++) {
    // Interleaved: the Worker arm, then the inline baseline, each run.
    let t = performance.now();
    const a = await withStallMeter(() => pool.transcribe(pcm));
    worker.latency.push(performance.now() - t - 10);
    worker.stall.push(a.stallMs);
    words = a.value.text;
    t = performance.now();
    const b = await withStallMeter(() => Promise.resolve(inline.decode(pcm)));
    onLoop.latency.push(performance.now() - t - 10);
    onLoop.stall.push(b.stallMs);
    const wait = worker.latency.at(-1)!;
    idle.stall.push(
      (await withStallMeter(() => new Promise((r) => setTimeout(r, wait)))).stallMs,
    );
  }
  console.log(`${seconds} s take (${words.split(" ").length} words decoded), ${RUNS} runs`);
  console.log(
    `  stop->words  forge Worker ${range(worker.latency, 0)} ms | inline ${
      range(onLoop.latency, 0)
    } ms`,
  );
  console.log(
    `  worst loop stall  forge Worker ${range(worker.stall)} ms | inline ${
      range(onLoop.stall)
    } ms | nothing decoding ${range(idle.stall)} ms`,
  );
  console.log(
    `  RTF (decode/audio)  forge Worker ${
      (median(worker.latency) / 1000 / seconds).toFixed(3)
    } | inline ${(median(onLoop.latency) / 1000 / seconds).toFixed(3)}`,
  );
}
console.log(
  `engine pocketsphinx: load ${poolLoad.toFixed(0)} ms in the Worker (${
    inlineLoad.toFixed(0)
  } ms inline); RSS +${mib(rss1 - rss0)} MiB (Worker), +${mib(rss2 - rss1)} MiB (inline decoder)`,
);
console.log(
  "engine whisper: no ggml model is installed on this machine; install one with dictate_install " +
    "and bench it with dictate_bench (the decode path is the same Worker)",
);
pool.close();
inline.close();
