import type { BenchTarget, BenchTier } from "../../../protocol/mod.ts";
import type { CatalogueRow } from "./catalogue.ts";

/** One finished bench run. spec: dictate_models > results (catalogue baseline v8 keys). */
export interface BenchResult {
  at: number;
  target: BenchTarget;
  tier: BenchTier;
  corpus: { clips: number; audio_seconds: number; sha256: string };
  metrics: {
    clips: number;
    matched: number;
    audio_seconds: number;
    wall_seconds: number;
    /** Word error rate over every clip's words, 0..1+. */
    wer: number;
    term_accuracy: number;
    /** Times realtime on the wall clock: audio seconds per wall second (higher is faster). */
    xrt_wall: number;
    stages_ms: Record<string, number>;
  };
}

export type Verdict =
  | "picked"
  | "beats_both"
  | "in_use"
  | "not_english"
  | "no_comparable_run"
  | "less_accurate"
  | "slower";

/** One entry of dictate_models' `updates`: a type alias, so the page checks it as a Wire. */
export type UpdateEntry = {
  role: "dictation";
  file: string;
  /**
   * The in-use model's own numbers. No feed carries FLEURS WER or m4-max speed here, so
   * `fleurs_en_wer` is null and the local bench's run (its WER and times-realtime) stands in.
   */
  current: {
    fleurs_en_wer: null;
    wer: number | null;
    speed_x: number | null;
    corpus: string | null;
  };
  candidates: {
    row: string;
    file: string;
    verdict: Verdict;
    wer: number | null;
    speed_x: number | null;
  }[];
};

/**
 * spec: "A candidate beats the model in use on both measured axes or it is not one": lower word
 * error rate AND faster, here both from local bench runs on the SAME tier and corpus as the
 * in-use model's newest run; it must carry English and not be the one in use. Among those that
 * clear it, the fastest is picked. Nothing is adopted: the page proposes, dictate_activate adopts.
 */
export function proposeUpdates(
  inUse: string,
  rows: readonly CatalogueRow[],
  results: readonly BenchResult[],
): UpdateEntry {
  const newest = (file: string, tier?: string, corpus?: string) =>
    results.filter((r) =>
      r.target.role === "dictation" && r.target.file === file &&
      (tier === undefined || r.tier === tier) &&
      (corpus === undefined || r.corpus.sha256 === corpus)
    ).sort((a, b) => b.at - a.at)[0];
  const current = newest(inUse);
  const judged = rows.filter((r) => r.kind === "dictation").map((row) => {
    const run = current ? newest(row.file, current.tier, current.corpus.sha256) : undefined;
    const verdict: Verdict = row.file === inUse
      ? "in_use"
      : !row.languages.includes("en")
      ? "not_english"
      : !current || !run
      ? "no_comparable_run"
      : run.metrics.wer >= current.metrics.wer
      ? "less_accurate"
      : run.metrics.xrt_wall <= current.metrics.xrt_wall
      ? "slower"
      : "beats_both";
    return {
      row: row.variant,
      file: row.file,
      verdict: verdict as Verdict,
      wer: run?.metrics.wer ?? null,
      speed_x: run?.metrics.xrt_wall ?? null,
    };
  });
  const best = judged.filter((c) => c.verdict === "beats_both")
    .sort((a, b) => (b.speed_x ?? 0) - (a.speed_x ?? 0))[0];
  if (best) best.verdict = "picked";
  return {
    role: "dictation",
    file: inUse,
    current: {
      fleurs_en_wer: null,
      wer: current?.metrics.wer ?? null,
      speed_x: current?.metrics.xrt_wall ?? null,
      corpus: current?.corpus.sha256 ?? null,
    },
    candidates: judged,
  };
}
