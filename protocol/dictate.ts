import { z } from "zod";
import {
  ActivateState,
  BenchProgress,
  BenchRun,
  CatalogueCheck,
  InstalledModel,
  InstallState,
  ModelFacts,
  ModelRow,
  ModelUpdate,
  PreflightState,
  ReadAloudRead,
  SpeakingBenchResult,
  SpeakingBenchRun,
  SpeakingRead,
} from "./dictate_models.ts";
import { WireTime } from "./wire_time.ts";

// spec: dictate_stream, dictate_stop, the take's updates and DictateOutcome; binary kind 0. The
// shapes the spec leaves open follow the original's serde derives (externally tagged,
// snake_case), said beside each one.

export const STYLINGS = ["formal", "semi_formal", "casual", "verbatim"] as const;
export const STRUCTURES = ["prose", "bullets", "as_spoken"] as const;
export const CONTEXTS = ["general", "code", "email", "chat"] as const;

/** The three prompt axes a take is normalised by. spec: greeting > settings.dictate. */
export const DictateAxes = z.object({
  styling: z.enum(STYLINGS),
  structure: z.enum(STRUCTURES),
  context: z.enum(CONTEXTS),
}).strict();
export type DictateAxes = z.infer<typeof DictateAxes>;

/** A seat's stored overrides: each axis absent when the default holds (the original's). */
export const DictateOverrides = DictateAxes.partial();
export type DictateOverrides = z.infer<typeof DictateOverrides>;

/** One axis set, or all cleared. Externally tagged like the original's enum. */
export const DictateOverrideUpdate = z.union([
  z.object({ styling: z.enum(STYLINGS) }).strict(),
  z.object({ structure: z.enum(STRUCTURES) }).strict(),
  z.object({ context: z.enum(CONTEXTS) }).strict(),
  z.literal("reset"),
]);
export type DictateOverrideUpdate = z.infer<typeof DictateOverrideUpdate>;

/** The capture device: the system default or one by id (the original's DictateDeviceChoice). */
export const DictateDeviceChoice = z.union([
  z.literal("system"),
  z.object({ device: z.string().min(1) }).strict(),
]);
export type DictateDeviceChoice = z.infer<typeof DictateDeviceChoice>;

/** The page whose own capture began a take. spec: dictate_stream > surface. */
export const DictateSurface = z.enum(["composer", "review", "files", "doc"]);
export type DictateSurface = z.infer<typeof DictateSurface>;

/** How a take ended: the original's DictateOutcome; `peak_db` is null for digital silence. */
export type DictateOutcome =
  | { landed: { text: string; truncated: boolean } }
  | "empty"
  | { no_audio: { peak_db: number | null; seconds: number } }
  | { refused: { message: string } }
  | "failed"
  | "cancelled";

export const DictateOutcome = z.union([
  z.object({ landed: z.object({ text: z.string(), truncated: z.boolean() }).strict() }).strict(),
  z.literal("empty"),
  z.object({
    no_audio: z.object({ peak_db: z.number().nullable(), seconds: z.number().int() }).strict(),
  }).strict(),
  z.object({ refused: z.object({ message: z.string() }).strict() }).strict(),
  z.literal("failed"),
  z.literal("cancelled"),
]);

/**
 * The composer's carried landing: the last landed take nobody has sent. spec: session > composer
 * > notice ("with carried: true and the surface whose capture began it - null for a server-side
 * take or a client older than the field").
 */
export const DictateNotice = z.object({
  text: z.string(),
  carried: z.literal(true),
  surface: DictateSurface.nullable(),
}).strict();
export type DictateNotice = z.infer<typeof DictateNotice>;

// ---- binary kind 0 --------------------------------------------------------------------------

/** spec: kind 0 carries i16 little-endian mono samples at 16 kHz, one frame per 20 ms. */
export const DICTATION_SAMPLE_RATE = 16_000;
export const DICTATION_FRAME_SAMPLES = 320;

/** Encodes a kind-0 frame: the tag, then the samples little-endian whatever the host order. */
export function encodeDictationFrame(samples: Int16Array): Uint8Array {
  const frame = new Uint8Array(1 + samples.length * 2);
  const view = new DataView(frame.buffer);
  frame[0] = 0;
  for (let i = 0; i < samples.length; i++) view.setInt16(1 + i * 2, samples[i], true);
  return frame;
}

/**
 * The samples of a kind-0 payload (the bytes after the tag, already checked even and within
 * 16 KiB by `decodeClientBinary`), copied so the result is aligned and owned.
 */
export function dictationSamples(payload: Uint8Array): Int16Array {
  const out = new Int16Array(payload.length >> 1);
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

// ---- the dictate_models subject -----------------------------------------------------------

/**
 * The models page's read (and `dictate_models_changed.models`). spec: dictate_models, the field
 * table; the key set is the original's, at its baseline v8. `speaking` and the speaking bench
 * belong to the voice subsystem ([tts]); null while it is off. The catalogue rows, installed
 * models, bench runs, read-aloud set and the check, install and activate states are
 * protocol/dictate_models.ts's schemas, which their builders return, as are the speaking row, the
 * proposals, the running bench and the speaking bench.
 */
export const DictateModelsSnapshot = z.object({
  enabled: z.boolean(),
  models_dir: z.string().nullable(),
  speaking: SpeakingRead.nullable(),
  in_use: z.array(
    z.object({
      role: z.string(),
      file: z.string(),
      size: z.number().nullable(),
      sha256: z.string().nullable(),
      state: PreflightState,
      // The speaking row's package declares no licence, parameters or quant: its runtime alone.
      facts: z.union([ModelFacts, z.object({ runtime: z.string() }).strict()]).nullable(),
      catalogue: ModelRow.nullable(),
      from: z.object({ from: z.string() }).strict(),
      at: WireTime.nullable().describe("when a runtime pick chose it, else null"),
    }).strict(),
  ),
  check: CatalogueCheck,
  updates: z.array(ModelUpdate),
  rows: z.array(ModelRow),
  install: InstallState,
  activate: ActivateState,
  installed: z.array(InstalledModel),
  bench: BenchProgress.nullable(),
  results: z.array(BenchRun),
  read_aloud: ReadAloudRead.nullable(),
  // spec: speaking_bench, speaking_results: the speaking loop's run and its results.
  speaking_bench: SpeakingBenchRun.nullable(),
  speaking_results: z.array(SpeakingBenchResult),
}).strict();
export type DictateModelsSnapshot = z.infer<typeof DictateModelsSnapshot>;
