// spec: dictate_models > speaking_bench, speaking_results: the fixed lines rendered
// with the real flite, read back with the real PocketSphinx; a stop stores nothing; a read-back
// that fails is the run's failure, in words.
import { assert, assertEquals } from "../../tests/assert.ts";
import { PS_MODEL_DIR } from "../dictate/engines/pocketsphinx_ffi.ts";
import { WorkerPool } from "../dictate/engines/pool.ts";
import type { DictationRole } from "../../server/subsystem.ts";
import { BENCH_LINES, SpeakingBench, type SpeakingResult } from "./bench.ts";
import { Speakers } from "./engines/mod.ts";
import { memoryLogger as keeperLog } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";

function pocketsphinx(pool: WorkerPool): DictationRole {
  return {
    file: () => "en-us.lm.bin",
    transcribe: async (pcm) => (await pool.transcribe(pcm)).text,
    page: () => {
      throw new Error("the speaking bench reads no models page");
    },
    announce: () => {},
  };
}

Deno.test("speaking bench: flite rms read back by PocketSphinx; stored with file and corpus", async () => {
  const dir = await Deno.makeTempDir();
  const pool = new WorkerPool({ engine: "pocketsphinx", path: PS_MODEL_DIR }, 1);
  const speakers = new Speakers();
  try {
    const bench = await SpeakingBench.open(
      new StateKeeper(keeperLog()),
      `${dir}/voice/results.json`,
    );
    const seen: unknown[] = [];
    await bench.run(
      speakers.get("flite"),
      "rms",
      pocketsphinx(pool),
      () => seen.push(structuredClone(bench.view())),
    );
    assertEquals(seen[0], {
      state: "running",
      clips: BENCH_LINES.length,
      done: 0,
      variant: "flite",
    });
    assertEquals(bench.view(), null, "the finished run leaves no run in flight");
    const [r] = JSON.parse(
      await Deno.readTextFile(`${dir}/voice/results.json`),
    ) as SpeakingResult[];
    assertEquals([r.variant, r.file, r.voice, r.dictation_file], [
      "flite",
      "flite",
      "rms",
      "en-us.lm.bin",
    ]);
    assertEquals(r.corpus.lines, BENCH_LINES.length);
    assertEquals(r.corpus.digest.length, 64);
    assert(r.round_trip_wer < 0.25, `round trip WER ${r.round_trip_wer}`);
    // Measured and stored, not judged here: how fast flite renders is the voice bench's figure.
    assert(Number.isFinite(r.rtf) && r.rtf > 0, `rtf ${r.rtf}`);
    assert(Number.isFinite(r.first_audio_ms) && r.first_audio_ms > 0, String(r.first_audio_ms));
    const reopened = await SpeakingBench.open(
      new StateKeeper(keeperLog()),
      `${dir}/voice/results.json`,
    );
    assertEquals((reopened.results() as unknown[]).length, 1, "results survive a restart");
  } finally {
    pool.close();
    speakers.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("speaking bench: a stop stores nothing; a failed read-back is the run's failure", async () => {
  const dir = await Deno.makeTempDir();
  const speakers = new Speakers();
  try {
    const bench = await SpeakingBench.open(new StateKeeper(keeperLog()), `${dir}/results.json`);
    const quiet: DictationRole = {
      file: () => "en-us.lm.bin",
      transcribe: () => Promise.resolve(""),
      page: () => {
        throw new Error("the speaking bench reads no models page");
      },
      announce: () => {},
    };
    const running = bench.run(speakers.get("flite"), "rms", quiet, () => {});
    assertEquals(bench.stop(), true);
    await running;
    assertEquals([bench.view(), bench.results()], [null, []]);
    assertEquals(bench.stop(), false, "nothing to stop");
    const broken: DictationRole = {
      ...quiet,
      transcribe: () =>
        Promise.reject(new Error("dictation cannot decode: no model is loaded yet")),
    };
    await bench.run(speakers.get("flite"), "rms", broken, () => {});
    assertEquals(bench.view(), {
      state: "failed",
      reason: "the speaking bench failed: dictation cannot decode: no model is loaded yet",
    });
  } finally {
    speakers.close();
    await Deno.remove(dir, { recursive: true });
  }
});
