import { assertEquals } from "../../tests/assert.ts";
import { Bench } from "./bench.ts";
import type { Transcriber } from "./engines/engine.ts";
import { PASSAGE, ReadAloudSet } from "./read_aloud.ts";
import { memoryLogger as keeperLog } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";

// The bench against a fake engine the test steps clip by clip: scoring and the stop rule.

const TARGET = { role: "dictation", file: "en-us.lm.bin", pinned: true } as const;
const MODEL = { engine: "pocketsphinx", path: "/fake" } as const;

async function world(clips: number) {
  const dir = await Deno.makeTempDir({ prefix: "forge-bench-test-" });
  const set = await ReadAloudSet.open(new StateKeeper(keeperLog()), `${dir}/set`);
  for (let i = 0; i < clips; i++) {
    set.start(1);
    set.frame(1, new Int16Array(16_000).fill(i + 1));
    await set.stop(1, true);
  }
  const words: ((text: string) => void)[] = [];
  let asked: () => void = () => {};
  const engine: Transcriber = {
    model: MODEL,
    ready: () => Promise.resolve(),
    transcribe: () =>
      new Promise((resolve) => {
        words.push((text) => resolve({ text, stages: { model_load_ms: 0, decode_ms: 5 } }));
        asked();
      }),
    close: () => {},
  };
  const next = () =>
    new Promise<(t: string) => void>((r) => {
      if (words.length) return r(words.shift()!);
      asked = () => r(words.shift()!);
    });
  const bench = await Bench.open(
    new StateKeeper(keeperLog()),
    `${dir}/bench.json`,
    set,
    () => {},
    () => engine,
  );
  return { dir, bench, next };
}

Deno.test("bench: WER against the passage and term accuracy over every clip (spec: dictate_bench)", async () => {
  const w = await world(2);
  const run = w.bench.plan(TARGET, "read_aloud", MODEL)();
  (await w.next())(PASSAGE); // exact
  (await w.next())(PASSAGE.replace("tests", "pests").replace("origin", "")); // 1 sub + 1 del
  await run;
  const [result] = w.bench.results();
  assertEquals(result.metrics.clips, 2);
  assertEquals(result.metrics.matched, 1);
  assertEquals(result.metrics.wer, Math.round((2 / 34) * 1000) / 1000);
  assertEquals(result.metrics.term_accuracy, 0.8);
  assertEquals(result.corpus.audio_seconds, 2);
  await Deno.remove(w.dir, { recursive: true });
});

Deno.test("bench: dictate_bench_stop ends the run and discards its partial result", async () => {
  const w = await world(3);
  const run = w.bench.plan(TARGET, "read_aloud", MODEL)();
  (await w.next())(PASSAGE);
  const pending = await w.next();
  w.bench.stop();
  pending(PASSAGE);
  await run;
  assertEquals(w.bench.results(), []);
  assertEquals(w.bench.view(), null);
  await Deno.remove(w.dir, { recursive: true });
});
