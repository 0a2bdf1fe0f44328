import { z } from "zod";
import {
  type DictationRole,
  isEngineError,
  type KeptFile,
  schemaParse,
  type SpeakingFields,
  type StateKeeper,
  StateWriteError,
} from "../../server/subsystem.ts";
import { SpeakingBenchResult, type SpeakingBenchRun } from "../../protocol/mod.ts";
import type { Speaker } from "./engines/speaker.ts";
import { scoringWords, wordErrors } from "../../server/word_errors.ts";
import { to16k } from "./resample.ts";

/**
 * The speaking bench (spec: dictate_models > speaking_bench, speaking_results): a
 * fixed set of lines rendered with the active voice and read back with the active dictation
 * engine. It scores the round trip's word error, first-audio latency (one line is one clip, so a
 * line's render time is when its audio could start), realtime factor and the process's peak RSS
 * above the run's baseline. The round trip measures how well the recogniser reads a voice, not
 * how a person hears it.
 */
export const BENCH_LINES = [
  "I ran the tests and they all passed.",
  "Push the branch to origin.",
  "Install the dependencies.",
  "Explain what this error means.",
  "Create a new branch called feature search.",
  "Delete the unused imports.",
  "Close the terminal.",
  "Build the project and report any warnings.",
];

/** A finished run as the state file keeps it: protocol/'s, its instant in epoch milliseconds. */
const SpeakingResult = SpeakingBenchResult.extend({ at: z.number() });
export type SpeakingResult = z.infer<typeof SpeakingResult>;

type Run = SpeakingBenchRun;

/**
 * The bench's runs and its finished results, kept in the state dir through forge's keeper: a
 * damaged results file is kept aside and reported, and a run is refused in the keeper's words
 * until it is mended or removed.
 */
export class SpeakingBench {
  #run: Run | null = null;
  #stop = false;

  private constructor(
    private readonly file: KeptFile<SpeakingResult[]>,
    private list: SpeakingResult[],
    private readonly log: StateKeeper["log"],
  ) {}

  static async open(keeper: StateKeeper, path: string): Promise<SpeakingBench> {
    const file = keeper.file(path, {
      area: "the speaking bench results",
      parse: schemaParse(z.array(SpeakingResult), "a list of speaking bench results"),
      indent: 1,
    });
    const read = await file.read();
    return new SpeakingBench(file, read.state === "read" ? read.value : [], keeper.log);
  }

  /** Before a run: a damaged results file refuses (the keeper's words); a mended one is read. */
  async writable(): Promise<void> {
    const read = await this.file.writable();
    if (read) this.list = read.state === "read" ? read.value : [];
  }

  /** `speaking_bench`: the run in flight or its failure; null when none ran since boot. */
  view(): SpeakingFields["speaking_bench"] {
    return this.#run;
  }

  /** `speaking_results`: every finished run, oldest first, with its instant as RFC 3339. */
  results(): SpeakingFields["speaking_results"] {
    return this.list.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  }

  get running(): boolean {
    return this.#run?.state === "running";
  }

  /** spec voice_bench_stop: ends the run in flight after its current clip; nothing is stored. */
  stop(): boolean {
    if (!this.running) return false;
    this.#stop = true;
    return true;
  }

  /** Runs the whole bench; `changed` is called on every step. Never rejects: failure is state. */
  async run(
    speaker: Speaker,
    voice: string,
    dictation: DictationRole,
    changed: () => void,
  ): Promise<void> {
    this.#stop = false;
    const run = {
      state: "running" as const,
      clips: BENCH_LINES.length,
      done: 0,
      variant: speaker.id,
    };
    this.#run = run;
    changed();
    const baseline = Deno.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 20);
    try {
      const latencies: number[] = [];
      let renderMs = 0, audioSeconds = 0, errors = 0, words = 0;
      for (const line of BENCH_LINES) {
        if (this.#stop) {
          this.#run = null;
          return changed();
        }
        const t0 = performance.now();
        const clip = await speaker.render(line, voice);
        const ms = performance.now() - t0;
        latencies.push(ms);
        renderMs += ms;
        audioSeconds += clip.samples.length / clip.sampleRate;
        const heard = await dictation.transcribe(to16k(clip.samples, clip.sampleRate));
        const ref = scoringWords(line);
        errors += wordErrors(ref, scoringWords(heard));
        words += ref.length;
        run.done++;
        changed();
      }
      peak = Math.max(peak, Deno.memoryUsage().rss);
      const sorted = [...latencies].sort((a, b) => a - b);
      await this.writable();
      const list = [...this.list, {
        at: Date.now(),
        variant: speaker.id,
        file: speaker.file,
        voice,
        dictation_file: dictation.file(),
        corpus: {
          lines: BENCH_LINES.length,
          words,
          audio_seconds: round(audioSeconds, 2),
          digest: await corpusDigest(),
        },
        round_trip_wer: round(errors / words, 4),
        first_audio_ms: round(sorted[sorted.length >> 1], 1),
        first_audio_cold_ms: round(latencies[0], 1),
        rtf: round(renderMs / 1000 / audioSeconds, 4),
        peak_rss_bytes: peak - baseline,
      }];
      await this.file.write(list);
      this.list = list;
      this.#run = null;
    } catch (err) {
      if (isEngineError(err)) this.log.warn("voice_bench_failed", { error: err });
      this.#run = { state: "failed", reason: `the speaking bench failed: ${benchWords(err)}` };
    } finally {
      clearInterval(sampler);
    }
    changed();
  }
}

/** The corpus's identity: SHA-256 of its lines, so only runs on one corpus compare. */
export async function corpusDigest(): Promise<string> {
  const bytes = new TextEncoder().encode(BENCH_LINES.join("\n"));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

function round(x: number, places: number): number {
  const f = 10 ** places;
  return Math.round(x * f) / f;
}

/** A keeper's words and forge's own pass on; an engine's message is named by what failed. */
function benchWords(err: unknown): string {
  if (err instanceof StateWriteError || !isEngineError(err)) return (err as Error).message;
  return "a clip could not be rendered or read back (the log has the cause)";
}
