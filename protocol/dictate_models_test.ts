// The models page's fields forge builds are read through their schemas, not as JSON: an in-use
// row's facts and pick time, the proposals, the bench in flight and the speaking bench. A value
// off its shape is refused by the validating client with the field's path and what it expected.
// spec: dictate_models (in_use, updates, bench, speaking_bench, speaking_results).
import { assertEquals } from "../tests/assert.ts";
import type { DictateModelsSnapshot } from "./dictate.ts";
import { WireChecker } from "./validate.ts";

const at = { secs_since_epoch: 1_700_000_000, nanos_since_epoch: 0 };
const page: DictateModelsSnapshot = {
  enabled: true,
  models_dir: "/m",
  speaking: null,
  in_use: [{
    role: "dictation",
    file: "ggml-base.en.bin",
    size: 10,
    sha256: null,
    state: "ready",
    facts: { license: "MIT", params: "74M", quant: null, runtime: "whisper" },
    catalogue: null,
    from: { from: "installed_pick" },
    at,
  }, {
    role: "speaking",
    file: "kokoro.onnx",
    size: null,
    sha256: null,
    state: "pending",
    facts: { runtime: "kokoro" },
    catalogue: null,
    from: { from: "compiled_pin" },
    at: null,
  }],
  check: { state: "never" },
  updates: [{
    role: "dictation",
    file: "ggml-base.en.bin",
    current: { fleurs_en_wer: 0.1, wer: 0.1, speed_x: 20, source: "feed", corpus: null },
    candidates: [
      { row: "base-en", file: "ggml-base.en.bin", verdict: "in_use", wer: 0.1, speed_x: 20 },
      { row: "tiny-en", file: "ggml-tiny.en.bin", verdict: "less_accurate", wer: 0.2, speed_x: 40 },
    ],
  }],
  rows: [{
    variant: "base-en",
    display_name: "Whisper base (English)",
    family: "whisper",
    kind: "dictation",
    engine: "whisper",
    source: "local_file",
    package: null,
    file: "ggml-base.en.bin",
    size_bytes: 10,
    digest: { algorithm: "sha256", value: "ab" },
    license: "MIT",
    params: "74M",
    languages: ["en"],
    streaming: false,
    download: { quant: null, size_bytes: 10 },
    speed: null,
    wer: null,
    url: null,
    download_count: null,
    installed: true,
  }],
  install: { state: "idle" },
  activate: { state: "idle" },
  installed: [],
  bench: {
    state: "running",
    target: { role: "dictation", file: "ggml-base.en.bin", pinned: false },
    tier: "read_aloud",
    clip: 1,
    clips: 3,
    so_far: { wer: 0.05 },
  },
  results: [],
  read_aloud: null,
  speaking_bench: { state: "running", clips: 8, done: 2, variant: "kokoro" },
  speaking_results: [{
    at: "2026-12-06T06:00:00.000Z",
    variant: "kokoro",
    file: "kokoro.onnx",
    voice: "af",
    dictation_file: "ggml-base.en.bin",
    corpus: { lines: 8, words: 40, audio_seconds: 12.5, digest: "ab" },
    round_trip_wer: 0.05,
    first_audio_ms: 120,
    first_audio_cold_ms: 400,
    rtf: 0.2,
    peak_rss_bytes: 1024,
  }],
};

const what = 'snapshot of "dictate_models"';

/** The checker's words for the page as `edit` leaves it (`as never`: a value off the type). */
function check(edit: (p: DictateModelsSnapshot) => void): string[] {
  const data = structuredClone(page);
  edit(data);
  return new WireChecker().check({ kind: "snapshot", subject: "dictate_models", data });
}

Deno.test("dictate_models: what forge builds for its own fields reads", () => {
  assertEquals(check(() => {}), []);
  assertEquals(check((p) => p.bench = { state: "failed", reason: "x.bin: no model" }), []);
  assertEquals(check((p) => p.speaking_bench = { state: "failed", reason: "no voice" }), []);
});

Deno.test("dictate_models: an in-use row's facts are the pin's, its pick time a WireTime", () => {
  assertEquals(check((p) => p.in_use[0].facts = { license: "MIT" } as never), [
    `${what}: in_use.0.facts.params: missing (expected a string)`,
  ]);
  assertEquals(check((p) => p.in_use[0].at = "2026-12-06" as never), [
    `${what}: in_use.0.at: expected an object, got a string`,
  ]);
});

Deno.test("dictate_models: a proposal's candidates carry the rule's verdict", () => {
  assertEquals(check((p) => p.updates[0].candidates[1].verdict = "worse" as never), [
    `${what}: updates.0.candidates.1.verdict: expected one of "picked", "beats_both", ` +
    `"in_use", "not_english", "no_comparable_run", "less_accurate", "slower", got "worse"`,
  ]);
  assertEquals(check((p) => p.updates[0].current.source = "hub" as never), [
    `${what}: updates.0.current.source: expected one of "feed", "local_bench", got "hub"`,
  ]);
});

Deno.test("dictate_models: the bench in flight is running or failed, with its own fields", () => {
  assertEquals(check((p) => delete (p.bench as { so_far?: unknown }).so_far), [
    `${what}: bench.so_far: missing (expected an object)`,
  ]);
  assertEquals(check((p) => p.bench = { state: "paused" } as never), [
    `${what}: bench.state: expected one of "running", "failed", got "paused"`,
  ]);
});

Deno.test("dictate_models: the speaking bench's run and results are theirs", () => {
  const run = { state: "running", clips: 8, variant: "kokoro" };
  assertEquals(check((p) => p.speaking_bench = run as never), [
    `${what}: speaking_bench.done: missing (expected a number)`,
  ]);
  assertEquals(check((p) => p.speaking_results[0].at = 1_700_000_000 as never), [
    `${what}: speaking_results.0.at: expected a string, got 1700000000`,
  ]);
});

Deno.test("dictate_models: a row's engine and source are the ones the catalogue has", () => {
  assertEquals(check((p) => p.rows[0].source = "download" as never), [
    `${what}: rows.0.source: expected one of "package", "local_file", got "download"`,
  ]);
  assertEquals(check((p) => p.rows[0].engine = "vosk" as never), [
    `${what}: rows.0.engine: expected one of "pocketsphinx", "whisper", "silero", got "vosk"`,
  ]);
});
