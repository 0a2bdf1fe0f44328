import type { SpeakingRead } from "../../protocol/mod.ts";
import { SPEAKER_IDS, type SpeakerId, type Speakers } from "./engines/mod.ts";
import type { SpeakingFields } from "../../server/subsystem.ts";

/** Which variant runs and where that choice came from. spec: dictate_models > speaking > from. */
export interface Choice {
  id: SpeakerId;
  from: "speaking_model" | "compiled_pin";
  /** A `[tts] speaking_model` that names no variant: said, and the default runs instead. */
  unknown: string | null;
}

/** Why the chosen variant cannot speak here, or null when it can. */
export function missingOf(speakers: Speakers, choice: Choice): string | null {
  const p = speakers.probed(choice.id);
  if (p === null) return null;
  return "missing" in p ? p.missing : null;
}

/**
 * The `speaking` row of the dictate_models read (spec: dictate_models > speaking): enabled,
 * models_dir, speaking_model, snapshot, active, from, variants, voices, voice, preview_error.
 * The engines here are packages, not downloaded ONNX files, so a variant's `installed` is whether
 * its probe found it and `quant`/`size` are null (the original's shape, with nothing to fill).
 */
export function speakingRow(
  speakers: Speakers,
  choice: Choice,
  conf: { enabled: boolean; modelsDir: string | null; voice: string | null },
  previewError: string | null,
): SpeakingRead {
  const installed = (id: SpeakerId) => {
    const p = speakers.probed(id);
    return p !== null && "voices" in p;
  };
  const variant = (id: SpeakerId) => ({
    variant: id,
    file: speakers.get(id).file,
    quant: null,
    size: null,
    installed: installed(id),
    active: id === choice.id,
  });
  const probe = speakers.probed(choice.id);
  const missing = missingOf(speakers, choice);
  const state: SpeakingRead["snapshot"]["state"] = probe === null
    ? "pending"
    : missing
    ? { failed: missing }
    : "ready";
  return {
    enabled: conf.enabled,
    models_dir: conf.modelsDir,
    speaking_model: choice.id,
    snapshot: { role: "speaking", file: speakers.get(choice.id).file, state },
    active: variant(choice.id),
    from: choice.from,
    variants: SPEAKER_IDS.map(variant),
    voices: probe && "voices" in probe ? probe.voices : [],
    voice: conf.voice,
    preview_error: previewError ??
      (choice.unknown
        ? `[tts] speaking_model "${choice.unknown}" names no variant (${
          SPEAKER_IDS.join(", ")
        }); ${choice.id} runs`
        : missing),
  };
}

/**
 * The speaking role's `in_use` row (spec: dictate_models > in_use): the variant the role runs,
 * `ready` once its probe found it installed, else `pending`; `from` names the [tts]
 * speaking_model pin or the compiled pin; `catalogue` is null (no feed carries the speaking
 * models), and so are size and digest (a package, not a downloaded file).
 */
export function speakingInUse(speakers: Speakers, choice: Choice): SpeakingFields["in_use"] {
  const probe = speakers.probed(choice.id);
  return {
    role: "speaking",
    file: speakers.get(choice.id).file,
    size: null,
    sha256: null,
    state: probe !== null && "voices" in probe ? "ready" : "pending",
    facts: { runtime: choice.id },
    catalogue: null,
    from: { from: choice.from },
    at: null,
  };
}
