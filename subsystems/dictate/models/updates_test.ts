import { assertEquals } from "../../../tests/assert.ts";
import { type CatalogueRow, POCKETSPHINX_ROW, WHISPER_TINY_EN_ROW } from "./catalogue.ts";
import { type BenchResult, measured, proposeUpdates, rowAxes } from "./updates.ts";

const row = (variant: string, file: string, languages = ["en"]): CatalogueRow => ({
  ...WHISPER_TINY_EN_ROW,
  variant,
  file,
  languages,
});
const run = (
  file: string,
  wer: number,
  xrt: number,
  corpus = "c1",
  tier = "read_aloud",
): BenchResult => ({
  at: 1,
  target: { role: "dictation", file, pinned: false },
  tier: tier as "read_aloud",
  corpus: { clips: 3, audio_seconds: 9, sha256: corpus },
  metrics: {
    clips: 3,
    matched: 3,
    audio_seconds: 9,
    wall_seconds: 9 / xrt,
    wer,
    term_accuracy: 1,
    xrt_wall: xrt,
    stages_ms: {},
  },
});
const IN_USE = POCKETSPHINX_ROW.file;
const verdicts = (rows: CatalogueRow[], results: BenchResult[]) =>
  Object.fromEntries(
    proposeUpdates(IN_USE, [POCKETSPHINX_ROW, ...rows], results).candidates.map((
      c,
    ) => [c.row, c.verdict]),
  );

Deno.test("candidate rule: better on both axes, the fastest of those is picked (spec: dictate_models > the candidate rule)", () => {
  const rows = [row("a", "a.bin"), row("b", "b.bin"), row("slow", "s.bin"), row("worse", "w.bin")];
  const results = [
    run(IN_USE, 0.25, 6),
    run("a.bin", 0.1, 8),
    run("b.bin", 0.2, 12),
    run("s.bin", 0.1, 5),
    run("w.bin", 0.3, 20),
  ];
  assertEquals(verdicts(rows, results), {
    "pocketsphinx-en-us": "in_use",
    a: "beats_both",
    b: "picked",
    slow: "slower",
    worse: "less_accurate",
  });
});

Deno.test("candidate rule: only runs on the same tier and corpus compare; English is required", () => {
  const rows = [row("other-corpus", "o.bin"), row("german", "g.bin", ["de"])];
  const results = [run(IN_USE, 0.25, 6), run("o.bin", 0.1, 50, "c2"), run("g.bin", 0.1, 50)];
  assertEquals(verdicts(rows, results), {
    "pocketsphinx-en-us": "in_use",
    "other-corpus": "no_comparable_run",
    german: "not_english",
  });
  // With no run of the model in use there is nothing to beat.
  assertEquals(verdicts(rows, [run("o.bin", 0.1, 50)])["other-corpus"], "no_comparable_run");
});

Deno.test("candidate rule: the feed's own numbers compare where both rows carry them", () => {
  const fed = (variant: string, file: string, fleurs_en_wer: number, speed_x: number) => ({
    ...row(variant, file),
    fleurs_en_wer,
    speed_x,
  });
  const inUse = { ...POCKETSPHINX_ROW, fleurs_en_wer: 0.3, speed_x: 10 };
  const entry = proposeUpdates(IN_USE, [
    inUse,
    fed("fast", "f.bin", 0.1, 40),
    fed("faster", "ff.bin", 0.2, 60),
    fed("worse", "w.bin", 0.4, 90),
    row("unfed", "u.bin"),
  ], [run("u.bin", 0.01, 99)]);
  assertEquals(entry.current, {
    fleurs_en_wer: 0.3,
    wer: 0.3,
    speed_x: 10,
    source: "feed",
    corpus: null,
  });
  assertEquals(Object.fromEntries(entry.candidates.map((c) => [c.row, c.verdict])), {
    "pocketsphinx-en-us": "in_use",
    fast: "beats_both",
    faster: "picked",
    worse: "less_accurate",
    unfed: "no_comparable_run", // a local run never compares with the feed's numbers
  });
});

Deno.test("measured: the feed's numbers, else the newest local run on the basis's corpus", () => {
  const fed = { ...row("x", "x.bin"), fleurs_en_wer: 0.2, speed_x: 30 };
  assertEquals(measured(fed, "x.bin", []), {
    wer: 0.2,
    speed_x: 30,
    source: "feed",
    corpus: null,
    tier: null,
  });
  const local = [run("y.bin", 0.5, 2, "c1"), { ...run("y.bin", 0.4, 3, "c2"), at: 2 }];
  assertEquals(measured(row("y", "y.bin"), "y.bin", local)?.corpus, "c2", "the newest run");
  const basis = measured(undefined, IN_USE, [run(IN_USE, 0.3, 5, "c1")]);
  assertEquals(measured(row("y", "y.bin"), "y.bin", local, basis)?.wer, 0.5, "the same corpus");
  assertEquals(measured(fed, "x.bin", [], basis), null, "feed numbers never meet a local basis");
});

// spec: dictate_models > rows: speed is the m4-max Metal row, the original's
// `{backend, machine, quant, xrt_wall}`; forge adds where the number came from.
Deno.test("rowAxes: speed keeps the original's keys, then the source; the local bench names its engine", () => {
  const fed = { ...row("x", "x.bin"), fleurs_en_wer: 0.2, speed_x: 30 };
  assertEquals(rowAxes(fed, measured(fed, "x.bin", [])), {
    speed: {
      backend: "metal",
      machine: "m4-max",
      quant: fed.quant,
      xrt_wall: 30,
      source: "feed",
      tier: null,
      corpus: null,
    },
    wer: { value: 0.2, source: "feed", tier: null, corpus: null },
  });
  const y = row("y", "y.bin");
  const local = rowAxes(y, measured(y, "y.bin", [run("y.bin", 0.5, 2, "c1")]));
  assertEquals(local.speed, {
    backend: y.engine,
    machine: "local",
    quant: y.quant,
    xrt_wall: 2,
    source: "local_bench",
    tier: "read_aloud",
    corpus: "c1",
  });
  assertEquals(local.wer, { value: 0.5, source: "local_bench", tier: "read_aloud", corpus: "c1" });
  assertEquals(rowAxes(y, null), { speed: null, wer: null }, "no number from anywhere");
});
