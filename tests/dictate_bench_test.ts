import { sha256Hex } from "../subsystems/dictate/digest.ts";
import { assert, assertEquals } from "./assert.ts";
import { flite } from "./dictate_audio.ts";
import { command, DICTATE_CONFIG, nextUpdate } from "./dictate_support.ts";
import { encodeDictationFrame } from "../protocol/mod.ts";
import { frames } from "./dictate_audio.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { spawnForge } from "./spawned.ts";

// Spawned tier: the read-aloud set recorded from kind-0 frames (three flite voices reading the
// passage), and a bench over it storing a result with its corpus digest.

type Page = {
  read_aloud: {
    passage: string;
    recording: boolean;
    recordings: { id: string; sha256: string; bytes: number; duration_ms: number }[];
  };
  bench: null | { state: string; clip?: number; clips?: number };
  results: {
    corpus: { clips: number; sha256: string; audio_seconds: number };
    metrics: {
      wer: number;
      term_accuracy: number;
      xrt_wall: number;
      stages_ms: Record<string, number>;
    };
    target: { file: string };
    tier: string;
  }[];
  updates: { current: { corpus: string | null; wer: number | null } }[];
  rows: { file: string; speed: unknown; wer: unknown }[];
};

async function pageWhere(c: ForgeClient, pred: (p: Page) => boolean): Promise<Page> {
  for (;;) {
    const page = (await nextUpdate(c, "dictate_models_changed", 120_000)).models as Page;
    if (pred(page)) return page;
  }
}

Deno.test("spawned read-aloud and bench: three recordings, one result with its corpus digest", async (t) => {
  await using forge = await spawnForge(DICTATE_CONFIG);
  const c = await forge.connect();
  c.send({ kind: "subscribe", what: "dictate_models" });
  const first = (await c.next((m) => m.kind === "snapshot")).data as Page;
  const passage = first.read_aloud.passage;

  await t.step(
    "spec dictate_read_aloud_start/_stop: each kept reading lands with duration, bytes and SHA-256",
    async () => {
      for (const voice of ["rms", "slt", "awb"]) {
        command(c, { dictate_read_aloud_start: {} });
        await pageWhere(c, (p) => p.read_aloud.recording);
        const speech = await flite(passage, voice);
        for (const f of frames(speech)) c.sendBinary(encodeDictationFrame(f));
        command(c, { dictate_read_aloud_stop: { keep: true } });
        const page = await pageWhere(c, (p) => !p.read_aloud.recording);
        const rec = page.read_aloud.recordings.at(-1)!;
        assertEquals(rec.duration_ms, Math.round(speech.length / 16));
        assertEquals(rec.bytes, 44 + speech.length * 2);
        const wav = await Deno.readFile(`${forge.dir}/state/dictate/read_aloud/${rec.id}.wav`);
        assertEquals(await sha256Hex(wav), rec.sha256);
      }
    },
  );

  await t.step("spec dictate_read_aloud_stop keep:false discards the reading", async () => {
    command(c, { dictate_read_aloud_start: {} });
    await pageWhere(c, (p) => p.read_aloud.recording);
    c.sendBinary(encodeDictationFrame(new Int16Array(320)));
    command(c, { dictate_read_aloud_stop: { keep: false } });
    const page = await pageWhere(c, (p) => !p.read_aloud.recording);
    assertEquals(page.read_aloud.recordings.length, 3);
  });

  await t.step(
    "spec dictate_bench: a run over the three stores WER, term accuracy, speed and the corpus digest",
    async () => {
      command(c, {
        dictate_bench: {
          target: { role: "dictation", file: "en-us.lm.bin", pinned: true },
          tier: "read_aloud",
        },
      });
      const page = await pageWhere(c, (p) => p.results.length === 1 && p.bench === null);
      const result = page.results[0];
      const recs = page.read_aloud.recordings;
      const digest = await sha256Hex(
        new TextEncoder().encode(recs.map((r) => r.sha256).join("\n")),
      );
      assertEquals(result.corpus.clips, 3);
      assertEquals(result.corpus.sha256, digest);
      assertEquals([result.target.file, result.tier], ["en-us.lm.bin", "read_aloud"]);
      assert(result.metrics.wer >= 0 && result.metrics.wer < 0.6, `wer ${result.metrics.wer}`);
      // Speed is measured, not judged here (a loaded machine decodes slower than real time).
      assert(result.metrics.xrt_wall > 0, `xrt ${result.metrics.xrt_wall}`);
      assert(result.metrics.stages_ms.model_load_ms > 0);
      // The updates entry reads the in-use model's own run on that corpus.
      assertEquals(page.updates[0].current.corpus, digest);
      assertEquals(page.updates[0].current.wer, result.metrics.wer);
      // No feed carries the row's speed and WER here: the local bench fills them, naming it.
      const row = page.rows.find((r) => r.file === "en-us.lm.bin")!;
      const local = { source: "local_bench", tier: "read_aloud", corpus: digest };
      assertEquals(row.wer, { value: result.metrics.wer, ...local });
      assertEquals(row.speed, {
        backend: "pocketsphinx",
        machine: "local",
        quant: "8-bit senone dump",
        xrt_wall: result.metrics.xrt_wall,
        ...local,
      });
    },
  );

  await t.step(
    "spec dictate_bench_delete: the result is removed; a second delete is refused in words",
    async () => {
      const del = {
        dictate_bench_delete: {
          target: { role: "dictation", file: "en-us.lm.bin", pinned: true },
          tier: "read_aloud",
          corpus: (await currentPage(c)).results[0].corpus.sha256,
        },
      };
      command(c, del);
      await pageWhere(c, (p) => p.results.length === 0);
      command(c, del);
      const err = await c.next((m) => m.kind === "error");
      assert(String(err.why).startsWith("dictate_bench_delete: no result of en-us.lm.bin"));
    },
  );
});

async function currentPage(c: ForgeClient): Promise<Page> {
  c.send({ kind: "subscribe", what: "dictate_models" });
  return (await c.next((m) => m.kind === "snapshot")).data as Page;
}
