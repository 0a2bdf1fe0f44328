import { z } from "zod";
import {
  DictateDeviceChoice,
  DictateModelsSnapshot,
  DictateOutcome,
  DictateOverrides,
} from "./dictate.ts";
import { PLUGINS_UPDATES } from "./extensions.ts";
import { HomeNotify } from "./notify.ts";
import { TerminalSummary } from "./terminal_summary.ts";
import { key, keyed, type UpdateSpec } from "./update_spec.ts";
import { VaultRotated } from "./vault.ts";
import { VoiceAudio, VoiceModeState } from "./voice.ts";

// The subsystems' updates: dictation and its takes, voice, the terminal, the vault and the
// plugins (the original's updates, by name; spec: terminal_changed, voice_audio,
// voice_mode_state, vault_rotated, What a subject carries > extensions).

const generation = z.number().int().describe("the take's generation: a re-started take counts up");
const take = "The take's own connection alone hears it.";
const plugins = <N extends keyof typeof PLUGINS_UPDATES>(about: string, name: N) => ({
  about,
  fields: PLUGINS_UPDATES[name],
  hears: ["extensions"] as const,
});

export const SUBSYSTEM_UPDATES = {
  dictate_availability: {
    about: "Dictation's preflight finished loading its models (a unit variant: its name alone).",
    fields: null,
    hears: ["dictate_models"],
  },
  dictate_models_changed: {
    about: "The models page's read moved (a check landed, an install or a bench moved).",
    fields: z.object({ models: DictateModelsSnapshot }).strict(),
    hears: ["dictate_models"],
  },
  dictate_overrides: {
    about:
      "A seat's dictation overrides after a change (each axis absent while the default holds).",
    fields: keyed({ overrides: DictateOverrides }),
  },
  dictate_device_pin: {
    about: "The capture device a seat's dictation pins (null: none pinned).",
    fields: keyed({ pick: DictateDeviceChoice.nullable() }),
  },
  dictate_started: {
    about: `A dictation take started listening. ${take}`,
    fields: keyed({
      floor_db: z.number().describe("the noise floor the take measured, in dB"),
      generation,
    }),
    own: true,
  },
  dictate_level: {
    about: `The take's input level. ${take}`,
    fields: keyed({ peak_db: z.number().nullable().describe("the peak in dB; null for silence") }),
    own: true,
  },
  dictate_transcribing: {
    about: `The take stopped listening and is being transcribed. ${take}`,
    fields: keyed({}),
    own: true,
  },
  dictate_progress: {
    about: `How far the take's transcription got. ${take}`,
    fields: keyed({
      generation,
      done: z.number().int(),
      total: z.number().int().nullable().describe("null while the total is unknown"),
    }),
    own: true,
  },
  dictate_ended: {
    about: `The take ended: its words landed, or why not. ${take}`,
    fields: keyed({ outcome: DictateOutcome, generation }),
    own: true,
  },
  voice_audio: {
    about: "One rendered clip of the seat's speech; every subscriber of the seat receives it.",
    fields: VoiceAudio,
  },
  voice_mode_state: {
    about: "How many connections have voice on for the seat.",
    fields: VoiceModeState,
  },
  terminal_changed: {
    about: "A seat's terminal opened, changed state or closed (terminal null once it is gone).",
    fields: z.object({ key, terminal: TerminalSummary.nullable() }).strict(),
  },
  vault_rotated: {
    about: "The vault session's refresh token rotated: a device holding an enrolment rewrites it " +
      "(live sockets only; sent to answering connections alone, the token being a secret).",
    fields: VaultRotated,
  },
  notify_state_changed: {
    about:
      "Whether pushes are on, a channel's state or the push subscriptions moved (home's notify).",
    fields: HomeNotify,
    extension: "forge's pushes (docs/notify.md): v29 has no notify row or update",
  },
  plugins_inventory_updated: plugins(
    "The plugin inventory was scanned afresh.",
    "plugins_inventory_updated",
  ),
  plugins_inventory_refresh_failed: plugins(
    "A scan of the plugin inventory failed.",
    "plugins_inventory_refresh_failed",
  ),
  plugins_cli_action_succeeded: plugins(
    "A plugin action (install, update, marketplace add or repair) succeeded.",
    "plugins_cli_action_succeeded",
  ),
  plugins_cli_action_failed: plugins("A plugin action failed.", "plugins_cli_action_failed"),
  plugins_update_run_progress: plugins(
    "An update run's rows moved (the whole run each time).",
    "plugins_update_run_progress",
  ),
  plugins_update_run_finished: plugins(
    "An update run or check finished.",
    "plugins_update_run_finished",
  ),
} as const satisfies Record<string, UpdateSpec>;
