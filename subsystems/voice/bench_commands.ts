import { type Host, ownWords, Refusal } from "../../server/subsystem.ts";
import type { SpeakingBench } from "./bench.ts";
import type { Speaker } from "./engines/mod.ts";

export interface BenchDeps {
  host: Host;
  bench: SpeakingBench;
  /** The engine and voice that speak now (throws saying why nothing can). */
  active(voice: string | null): Promise<{ speaker: Speaker; voice: string }>;
  /** Tells the models page its speaking rows moved. */
  announce(): void;
}

/**
 * The speaking bench's commands: a round trip of clips rendered by the active engine and read
 * back by dictation, one run at a time. spec: speaking_bench, speaking_results.
 */
export function benchCommands({ host, bench, active, announce }: BenchDeps) {
  return {
    voice_bench_start: async () => {
      const benchWords = (err: unknown) =>
        ownWords(err, {
          log: host.log,
          event: "voice_bench_refused",
          fallback: "the speaking voice could not be made ready; the log has the cause",
        });
      if (bench.running) {
        throw new Refusal(
          "voice_bench_start",
          "voice_bench_start: a speaking bench is already running",
        );
      }
      const dictation = host.speech?.dictation;
      if (!dictation) {
        throw new Refusal(
          "voice_bench_start",
          "voice_bench_start: the round trip reads the clips back with dictation, and [dictate] is off",
        );
      }
      let picked: { speaker: Speaker; voice: string };
      try {
        picked = await active(null);
      } catch (err) {
        throw new Refusal("voice_bench_start", `voice_bench_start: ${benchWords(err)}`);
      }
      await bench.writable().catch((err) => {
        throw new Refusal("voice_bench_start", `voice_bench_start: ${benchWords(err)}`);
      });
      void bench.run(picked.speaker, picked.voice, dictation, announce);
    },
    voice_bench_stop: () => {
      if (!bench.stop()) {
        throw new Refusal("voice_bench_stop", "voice_bench_stop: no speaking bench is running");
      }
    },
  };
}
