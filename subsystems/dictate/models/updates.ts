import type {
  BenchRun,
  ModelSpeed,
  ModelUpdate,
  ModelVerdict,
  ModelWer,
} from "../../../protocol/mod.ts";
import type { CatalogueRow } from "./catalogue.ts";

/**
 * One finished bench run as this server keeps it: protocol/'s BenchRun (spec: dictate_models >
 * results), its instant in epoch milliseconds until the page's read turns it into the wire's.
 */
export type BenchResult = Omit<BenchRun, "at"> & { at: number };

/** The rule's verdict on a row: protocol/'s. */
export type Verdict = ModelVerdict;

/**
 * A model's two measured axes and where they came from: the feed's own numbers (FLEURS English
 * WER and the m4-max Metal realtime factor) where its row carries both, else the local bench's
 * newest run on the read-aloud set. Numbers from different sources, or from runs on different
 * tiers or corpora, are never compared.
 */
export type Measured = {
  wer: number;
  speed_x: number;
  source: "feed" | "local_bench";
  /** The corpus digest a local run scored, and its tier; null for the feed's numbers. */
  corpus: string | null;
  tier: string | null;
};

/**
 * A row's measured axes: its feed numbers, else the newest local run of its file - on `basis`'s
 * tier and corpus when one is given (so it compares with the model in use), else any.
 */
export function measured(
  row: CatalogueRow | undefined,
  file: string,
  results: readonly BenchResult[],
  basis: Measured | null = null,
): Measured | null {
  if (basis?.source !== "local_bench" && row?.speed_x != null && row.fleurs_en_wer != null) {
    return {
      wer: row.fleurs_en_wer,
      speed_x: row.speed_x,
      source: "feed",
      corpus: null,
      tier: null,
    };
  }
  if (basis?.source === "feed") return null;
  const run = results.filter((r) =>
    r.target.role === "dictation" && r.target.file === file &&
    (basis === null || (r.tier === basis.tier && r.corpus.sha256 === basis.corpus))
  ).sort((a, b) => b.at - a.at)[0];
  return run
    ? {
      wer: run.metrics.wer,
      speed_x: run.metrics.xrt_wall,
      source: "local_bench",
      corpus: run.corpus.sha256,
      tier: run.tier,
    }
    : null;
}

/** A row's `speed` on the page: protocol/'s, the original's keys then the number's source. */
export type SpeedAxis = ModelSpeed;

/** A row's `wer` on the page: protocol/'s, the rate then where it came from. */
export type WerAxis = ModelWer;

/**
 * A row's two axes as the page carries them. spec: dictate_models > rows (speed is "the m4-max
 * Metal row", the original's `{backend, machine, quant, xrt_wall}`): the feed's numbers keep
 * that row; the local bench's name the engine it ran on this machine. Either way the source,
 * tier and corpus ride beside, so a client never compares numbers of two sources.
 */
export function rowAxes(
  row: CatalogueRow,
  m: Measured | null,
): { speed: SpeedAxis | null; wer: WerAxis | null } {
  if (m === null) return { speed: null, wer: null };
  const from = { source: m.source, tier: m.tier, corpus: m.corpus };
  const feed = m.source === "feed";
  return {
    speed: {
      backend: feed ? "metal" : row.engine,
      machine: feed ? "m4-max" : "local",
      quant: row.quant,
      xrt_wall: m.speed_x,
      ...from,
    },
    wer: { value: m.wer, ...from },
  };
}

/** One entry of dictate_models' `updates`: protocol/'s ModelUpdate, so the page checks it. */
export type UpdateEntry = ModelUpdate;

/**
 * spec: "A candidate beats the model in use on both measured axes or it is not one": lower word
 * error rate AND faster, both from one source - the feed's own rows where they carry the
 * numbers, else local bench runs on the SAME tier and corpus as the in-use model's newest run; it
 * must carry English and not be the one in use. Among those that clear it, the fastest is picked.
 * Nothing is adopted: the page proposes, dictate_activate adopts.
 */
export function proposeUpdates(
  inUse: string,
  rows: readonly CatalogueRow[],
  results: readonly BenchResult[],
): UpdateEntry {
  const inUseRow = rows.find((r) => r.file === inUse);
  const current = measured(inUseRow, inUse, results);
  const judged = rows.filter((r) => r.kind === "dictation").map((row) => {
    const theirs = current ? measured(row, row.file, results, current) : null;
    const verdict: Verdict = row.file === inUse
      ? "in_use"
      : !row.languages.includes("en")
      ? "not_english"
      : !current || !theirs
      ? "no_comparable_run"
      : theirs.wer >= current.wer
      ? "less_accurate"
      : theirs.speed_x <= current.speed_x
      ? "slower"
      : "beats_both";
    return {
      row: row.variant,
      file: row.file,
      verdict: verdict as Verdict,
      wer: theirs?.wer ?? null,
      speed_x: theirs?.speed_x ?? null,
    };
  });
  const best = judged.filter((c) => c.verdict === "beats_both")
    .sort((a, b) => (b.speed_x ?? 0) - (a.speed_x ?? 0))[0];
  if (best) best.verdict = "picked";
  return {
    role: "dictation",
    file: inUse,
    current: {
      fleurs_en_wer: inUseRow?.fleurs_en_wer ?? null,
      wer: current?.wer ?? null,
      speed_x: current?.speed_x ?? null,
      source: current?.source ?? null,
      corpus: current?.corpus ?? null,
    },
    candidates: judged,
  };
}
