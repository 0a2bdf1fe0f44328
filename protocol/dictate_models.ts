import { z } from "zod";
import { WireTime } from "./wire_time.ts";

// spec: dictate_models, its field table: the rows inside the models page's read that the server
// builds (subsystems/dictate/models/page.ts, bench.ts, read_aloud.ts; subsystems/voice/row.ts)
// and the page draws. Each builder returns the inferred type, so a drift fails the type check.

/** The roles a model serves. The speaking role is the voice issue's (`[tts]`). */
export const DictateRole = z.enum(["dictation", "vad"]);
export type DictateRole = z.infer<typeof DictateRole>;

/**
 * A model's preflight state, as home > dictate's models and dictate_models > in_use carry it.
 * spec: dictate_models > in_use ("pending, downloading, verifying, fetched, loading, ready,
 * failed"); the catalogue gives the original's serde shape: the bare states as strings,
 * `downloading` with its byte counts, `failed` with the reason in forge's words.
 */
export const PreflightState = z.union([
  z.enum(["pending", "verifying", "fetched", "loading", "ready"]),
  z.object({
    downloading: z.object({
      downloaded: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      resumed_from: z.number().int().nonnegative().nullable(),
    }).strict(),
  }).strict(),
  z.object({ failed: z.string() }).strict(),
]);
export type PreflightState = z.infer<typeof PreflightState>;

/** What a bench scores: a model file in a role (the original's bench.target{file,pinned,role}). */
export const BenchTarget = z.object({
  role: DictateRole,
  file: z.string().min(1),
  pinned: z.boolean(),
}).strict();
export type BenchTarget = z.infer<typeof BenchTarget>;

/**
 * Which local recordings a bench runs on. The original's tier names were not read (no record of
 * them here), so ours names the one source of recordings this machine has: the read-aloud set.
 */
export const BenchTier = z.enum(["read_aloud"]);
export type BenchTier = z.infer<typeof BenchTier>;

/** Where a row's number came from: the feed's own, or this machine's read-aloud bench. */
const Source = z.enum(["feed", "local_bench"]);
/** Beside every number: its source, and a local run's tier and corpus digest (null: the feed). */
const From = { source: Source, tier: z.string().nullable(), corpus: z.string().nullable() };

/** A row's speed: the original's `{backend, machine, quant, xrt_wall}`, then its source. */
export const ModelSpeed = z.object({
  backend: z.string(),
  machine: z.string(),
  quant: z.string().nullable(),
  xrt_wall: z.number(),
  ...From,
}).strict();
export type ModelSpeed = z.infer<typeof ModelSpeed>;

/** A row's word error rate (0..1+), then its source. */
export const ModelWer = z.object({ value: z.number(), ...From }).strict();
export type ModelWer = z.infer<typeof ModelWer>;

/** The runtimes a row's model loads in. */
export const ModelEngine = z.enum(["pocketsphinx", "whisper", "silero"]);
/** Where a row's model comes from: shipped in a package, or a local file an install copies in. */
export const ModelSource = z.enum(["package", "local_file"]);

/** One catalogue row. spec: dictate_models > rows. */
export const ModelRow = z.object({
  variant: z.string(),
  display_name: z.string(),
  family: z.string(),
  /** Which role's list the row belongs in. */
  kind: z.enum(["dictation", "vad"]),
  engine: ModelEngine,
  source: ModelSource,
  package: z.string().nullable(),
  file: z.string(),
  size_bytes: z.number(),
  digest: z.object({ algorithm: z.enum(["sha256", "sha1"]), value: z.string() }).strict(),
  license: z.string(),
  params: z.string().nullable(),
  languages: z.array(z.string()),
  streaming: z.boolean(),
  download: z.object({ quant: z.string().nullable(), size_bytes: z.number() }).strict(),
  speed: ModelSpeed.nullable(),
  wer: ModelWer.nullable(),
  url: z.string().nullable(),
  download_count: z.number().nullable(),
  installed: z.boolean(),
}).strict();
export type ModelRow = z.infer<typeof ModelRow>;

/**
 * What the catalogue declares of a checkpoint: its licence, parameters, quant and runtime.
 * spec: dictate_models > in_use (facts), installed (facts).
 */
export const ModelFacts = z.object({
  license: z.string(),
  params: z.string().nullable(),
  quant: z.string().nullable(),
  runtime: z.string(),
}).strict();
export type ModelFacts = z.infer<typeof ModelFacts>;

/** One model this machine installed. spec: dictate_models > installed. */
export const InstalledModel = z.object({
  variant: z.string(),
  file: z.string(),
  /** Where it came from: the local file it was copied from. */
  url: z.string(),
  size: z.number(),
  sha256: z.string(),
  facts: ModelFacts,
  at: WireTime,
}).strict();
export type InstalledModel = z.infer<typeof InstalledModel>;

/** One finished bench run. spec: dictate_models > results (the catalogue baseline v8 keys). */
export const BenchRun = z.object({
  at: WireTime,
  target: BenchTarget,
  tier: BenchTier,
  corpus: z.object({ clips: z.number(), audio_seconds: z.number(), sha256: z.string() }).strict(),
  metrics: z.object({
    clips: z.number(),
    matched: z.number(),
    audio_seconds: z.number(),
    wall_seconds: z.number(),
    /** Word error rate over every clip's words, 0..1+. */
    wer: z.number(),
    term_accuracy: z.number(),
    /** Times realtime on the wall clock: audio seconds per wall second (higher is faster). */
    xrt_wall: z.number(),
    stages_ms: z.record(z.string(), z.number()),
  }).strict(),
}).strict();
export type BenchRun = z.infer<typeof BenchRun>;

/**
 * The bench in flight, or why the last run ended without a result. spec: dictate_models > bench
 * ("its target, its tier, its clip count and the agreement so far"), the catalogue's
 * `bench{clip, clips, so_far, state, target, tier}`; `failed` is forge's extension.
 */
export const BenchProgress = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("running"),
    target: BenchTarget,
    tier: BenchTier,
    clip: z.number().int().nonnegative(),
    clips: z.number().int().nonnegative(),
    so_far: z.object({ wer: z.number().nullable() }).strict(),
  }).strict(),
  z.object({
    state: z.literal("failed"),
    reason: z.string().describe(
      "forge's extension: why the last run ended without a result, until the next run",
    ),
  }).strict(),
]);
export type BenchProgress = z.infer<typeof BenchProgress>;

/** The candidate rule's verdict on one row. spec: dictate_models, the rule beneath the table. */
export const ModelVerdict = z.enum([
  "picked",
  "beats_both",
  "in_use",
  "not_english",
  "no_comparable_run",
  "less_accurate",
  "slower",
]);
export type ModelVerdict = z.infer<typeof ModelVerdict>;

const ext = (why: string) => `forge's extension: ${why}`;

/**
 * One entry of `updates`: the in-use model's numbers and every comparable row ranked with the
 * rule's verdict. spec: dictate_models > updates; the catalogue's `updates[]{candidates[]{row,
 * verdict}, current{fleurs_en_wer, speed_x}, file, role}`. Built by
 * subsystems/dictate/models/updates.ts (proposeUpdates); the dictation role is the one the feed
 * reads against.
 */
export const ModelUpdate = z.object({
  role: z.literal("dictation"),
  file: z.string(),
  current: z.object({
    fleurs_en_wer: z.number().nullable(),
    wer: z.number().nullable().describe(ext("the word error rate the rule compares on")),
    speed_x: z.number().nullable(),
    source: Source.nullable().describe(ext("where the compared numbers came from")),
    corpus: z.string().nullable().describe(ext("a local run's corpus digest; null: the feed")),
  }).strict(),
  candidates: z.array(
    z.object({
      row: z.string(),
      file: z.string().describe(ext("the row's model file")),
      verdict: ModelVerdict,
      wer: z.number().nullable().describe(ext("the row's compared word error rate")),
      speed_x: z.number().nullable().describe(ext("the row's compared realtime factor")),
    }).strict(),
  ),
}).strict();
export type ModelUpdate = z.infer<typeof ModelUpdate>;

/**
 * The speaking bench's run in flight (its clip count and progress) or its failure. spec:
 * dictate_models > speaking_bench. Built by subsystems/voice/bench.ts.
 */
export const SpeakingBenchRun = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("running"),
    clips: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    variant: z.string(),
  }).strict(),
  z.object({ state: z.literal("failed"), reason: z.string() }).strict(),
]);
export type SpeakingBenchRun = z.infer<typeof SpeakingBenchRun>;

/**
 * One finished speaking bench run. spec: dictate_models > speaking_results: its round-trip word
 * error, first-audio latency, realtime factor, peak_rss_bytes, the model file and the corpus.
 */
export const SpeakingBenchResult = z.object({
  at: z.iso.datetime().describe("when the run finished, RFC 3339"),
  variant: z.string(),
  file: z.string(),
  voice: z.string(),
  dictation_file: z.string().describe("the dictation model that read the audio back"),
  corpus: z.object({
    lines: z.number(),
    words: z.number(),
    audio_seconds: z.number(),
    digest: z.string(),
  }).strict(),
  round_trip_wer: z.number(),
  first_audio_ms: z.number().describe("the median line's render time"),
  first_audio_cold_ms: z.number().describe("the first line's render time"),
  rtf: z.number(),
  peak_rss_bytes: z.number(),
}).strict();
export type SpeakingBenchResult = z.infer<typeof SpeakingBenchResult>;

/** One reading of the passage kept in the read-aloud set. */
export const ReadAloudRecording = z.object({
  id: z.string(),
  duration_ms: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  at: WireTime,
}).strict();
export type ReadAloudRecording = z.infer<typeof ReadAloudRecording>;

/**
 * The read-aloud set. spec: dictate_models > read_aloud: the recordings, whether one is being
 * recorded, the passage and the terms a run scores, and why the set cannot move (its index is
 * damaged), else null.
 */
export const ReadAloudRead = z.object({
  recordings: z.array(ReadAloudRecording),
  recording: z.boolean(),
  passage: z.string(),
  terms: z.array(z.string()),
  error: z.string().nullable(),
}).strict();
export type ReadAloudRead = z.infer<typeof ReadAloudRead>;

/** The catalogue check. spec: dictate_models > check. */
export const CatalogueCheck = z.discriminatedUnion("state", [
  z.object({ state: z.literal("never") }).strict(),
  z.object({ state: z.literal("checking") }).strict(),
  z.object({
    state: z.literal("fresh"),
    at: WireTime,
    release: z.string(),
    /** Rows the feed carried that are not a row of the catalogue's shape. */
    skipped: z.number().int(),
  }).strict(),
  z.object({ state: z.literal("unreachable"), error: z.string() }).strict(),
]);
export type CatalogueCheck = z.infer<typeof CatalogueCheck>;

/** An install's progress. spec: dictate_models > install. */
export const InstallState = z.discriminatedUnion("state", [
  z.object({ state: z.literal("idle") }).strict(),
  z.object({
    state: z.literal("downloading"),
    file: z.string(),
    got: z.number(),
    total: z.number(),
  }).strict(),
  z.object({ state: z.literal("failed"), file: z.string(), reason: z.string() }).strict(),
]);
export type InstallState = z.infer<typeof InstallState>;

/** A role swap's progress. spec: dictate_models > activate. */
export const ActivateState = z.discriminatedUnion("state", [
  z.object({ state: z.literal("idle") }).strict(),
  z.object({ state: z.literal("activating"), role: DictateRole }).strict(),
  z.object({ state: z.literal("failed"), role: DictateRole, reason: z.string() }).strict(),
]);
export type ActivateState = z.infer<typeof ActivateState>;

/** A speaking variant. Package engines: `quant` and `size` are null, `installed` is the probe's. */
const SpeakingVariant = z.object({
  variant: z.string(),
  file: z.string(),
  quant: z.null(),
  size: z.null(),
  installed: z.boolean(),
  active: z.boolean(),
}).strict();

/**
 * The speaking role's read, the voice subsystem's ([tts]). spec: dictate_models > speaking:
 * enabled, models_dir, speaking_model, snapshot, active, from, variants, voices, voice,
 * preview_error (why a preview cannot speak, else null).
 */
export const SpeakingRead = z.object({
  enabled: z.boolean(),
  models_dir: z.string().nullable(),
  speaking_model: z.string(),
  snapshot: z.object({
    role: z.literal("speaking"),
    file: z.string(),
    state: z.union([z.enum(["pending", "ready"]), z.object({ failed: z.string() }).strict()]),
  }).strict(),
  active: SpeakingVariant,
  from: z.enum(["speaking_model", "compiled_pin"]),
  variants: z.array(SpeakingVariant),
  voices: z.array(z.string()),
  voice: z.string().nullable(),
  preview_error: z.string().nullable(),
}).strict();
export type SpeakingRead = z.infer<typeof SpeakingRead>;
