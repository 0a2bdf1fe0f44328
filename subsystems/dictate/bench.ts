import { z } from "zod";
import {
  BenchRun,
  type BenchTarget,
  type BenchTier,
  type DictateModelsSnapshot,
} from "../../protocol/mod.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../server/subsystem.ts";
import { sha256Hex } from "./digest.ts";
import type { EngineModel, Transcriber } from "./engines/engine.ts";
import { WorkerPool } from "./engines/pool.ts";
import type { BenchResult } from "./models/updates.ts";
import { PASSAGE, type ReadAloudSet, TERMS } from "./read_aloud.ts";
import { decodeWav } from "./wav.ts";
import { scoringWords, wordErrors } from "../../server/word_errors.ts";

/** The results file: protocol/'s BenchRun with its instant in epoch ms (`BenchResult`). */
const Results = z.array(BenchRun.extend({ at: z.number() }));

type Running = {
  target: BenchTarget;
  tier: BenchTier;
  clip: number;
  clips: number;
  so_far: { wer: number | null };
  stop: boolean;
};

/**
 * The local bench: one model scored on one tier of local recordings (WER against the passage,
 * term accuracy, times realtime, per-stage ms, the corpus digest), on a Worker of its own so a
 * run never takes the decoder takes use. Results persist in `state/dictate/bench.json` through
 * forge's keeper: a damaged file is kept aside and reported, and runs and deletions are refused
 * in the keeper's words until it is mended or removed.
 * spec: dictate_bench, dictate_bench_stop, dictate_bench_delete, dictate_models > bench, results.
 */
export class Bench {
  #results: BenchResult[] = [];
  #running: Running | null = null;
  /** Why the last run ended without a result (a model that would not load), until the next. */
  #failure: string | null = null;

  private constructor(
    private readonly file: KeptFile<BenchResult[]>,
    private readonly set: ReadAloudSet,
    private readonly changed: () => void,
    private readonly makeEngine: (m: EngineModel) => Transcriber = (m) => new WorkerPool(m, 1),
  ) {}

  static async open(
    keeper: StateKeeper,
    path: string,
    set: ReadAloudSet,
    changed: () => void,
    makeEngine?: (m: EngineModel) => Transcriber,
  ): Promise<Bench> {
    const file = keeper.file(path, {
      area: "the dictation bench results",
      parse: schemaParse(Results, "a list of bench results"),
    });
    const bench = new Bench(file, set, changed, makeEngine);
    const read = await file.read();
    if (read.state === "read") bench.#results = read.value;
    return bench;
  }

  results(): BenchResult[] {
    return [...this.#results];
  }

  view(): DictateModelsSnapshot["bench"] {
    if (!this.#running) return this.#failure ? { state: "failed", reason: this.#failure } : null;
    const { stop: _stop, ...shown } = this.#running;
    return { state: "running", ...shown };
  }

  /**
   * Checks a run now (throws the refusal: one already running, an empty set) and returns it to
   * run in the background; its progress and result ride the page.
   */
  plan(target: BenchTarget, tier: BenchTier, model: EngineModel): () => Promise<void> {
    if (this.#running) throw new Error("a bench run is already going: dictate_bench_stop it first");
    if (this.file.damage) throw new Error(this.file.damage);
    if (this.set.recordings.length === 0) {
      throw new Error("the read-aloud set is empty: record the passage first");
    }
    const run: Running = {
      target,
      tier,
      clip: 0,
      clips: this.set.recordings.length,
      so_far: { wer: null },
      stop: false,
    };
    this.#running = run;
    this.#failure = null;
    return () =>
      this.#run(run, model).catch((err) => {
        this.#failure = `${target.file}: ${(err as Error).message}`;
      }).finally(() => {
        this.#running = null;
        this.changed();
      });
  }

  /** spec dictate_bench_stop: the run ends and its partial result is discarded. */
  stop(): void {
    if (!this.#running) throw new Error("no bench run is going");
    this.#running.stop = true;
  }

  async remove(target: BenchTarget, tier: BenchTier, corpus: string): Promise<void> {
    await this.#mended();
    const keep = this.#results.filter((r) =>
      !(r.target.file === target.file && r.target.role === target.role && r.tier === tier &&
        r.corpus.sha256 === corpus)
    );
    if (keep.length === this.#results.length) {
      throw new Error(`no result of ${target.file} on ${tier} over corpus ${corpus}`);
    }
    await this.#save(keep);
  }

  async #run(run: Running, model: EngineModel): Promise<void> {
    const recordings = [...this.set.recordings];
    const corpus = await sha256Hex(
      new TextEncoder().encode(recordings.map((r) => r.sha256).join("\n")),
    );
    const ref = scoringWords(PASSAGE);
    const engine = this.makeEngine(model);
    const t0 = performance.now();
    let errors = 0, words = 0, matched = 0, terms = 0, audio = 0, decodeMs = 0;
    try {
      await engine.ready();
      const loadMs = performance.now() - t0;
      const started = performance.now();
      this.changed();
      for (const rec of recordings) {
        if (run.stop) return;
        const pcm = decodeWav(await Deno.readFile(this.set.path(rec.id)), `recording ${rec.id}`);
        audio += pcm.length / 16_000;
        const out = await engine.transcribe(pcm);
        decodeMs += out.stages.decode_ms;
        const hyp = scoringWords(out.text);
        const e = wordErrors(ref, hyp);
        errors += e;
        words += ref.length;
        if (e === 0) matched++;
        terms += TERMS.filter((t) => hyp.includes(t)).length;
        run.clip++;
        run.so_far = { wer: errors / words };
        this.changed();
      }
      if (run.stop) return;
      const wall = (performance.now() - started) / 1000;
      await this.#mended();
      await this.#save([...this.#results, {
        at: Date.now(),
        target: run.target,
        tier: run.tier,
        corpus: { clips: recordings.length, audio_seconds: round(audio), sha256: corpus },
        metrics: {
          clips: recordings.length,
          matched,
          audio_seconds: round(audio),
          wall_seconds: round(wall),
          wer: round(errors / words),
          term_accuracy: round(terms / (TERMS.length * recordings.length)),
          xrt_wall: round(audio / wall),
          stages_ms: { model_load_ms: Math.round(loadMs), decode_ms: Math.round(decodeMs) },
        },
      }]);
    } finally {
      engine.close();
    }
  }

  /** A damaged file refuses (the keeper's words); a mended one is read back first. */
  async #mended(): Promise<void> {
    const read = await this.file.writable();
    if (read) this.#results = read.state === "read" ? read.value : [];
  }

  /** The results move only once the write landed. */
  async #save(results: BenchResult[]): Promise<void> {
    await this.file.write(results);
    this.#results = results;
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
