import { type ClientMessageOf, type Slot, slotName } from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal, toolHandlers } from "../../server/subsystem.ts";
import { notASeat } from "../../server/workspace/workspace.ts";
import { VOICE_TOOLS } from "./tool_specs.ts";
import { SpeakingBench } from "./bench.ts";
import type { Speaker } from "./engines/mod.ts";
import { benchCommands } from "./bench_commands.ts";
import { speakingEngine, Unspeakable } from "./speaking.ts";
import { ListenerSet, type SwitchMove, VOICE_NOTES } from "./listeners.ts";
import { VoiceStreams } from "./queue.ts";
import { missingOf, speakingInUse, speakingRow } from "./row.ts";
import { sayTool } from "./say.ts";
import { onEachClose } from "../../server/close_hook.ts";

/** The fixed line a preview speaks. spec: voice_preview. */
export const PREVIEW_LINE = "This is how I will sound when I tell you what I am doing.";

/**
 * Voice: the seat speaks its updates to the connections listening to it. spec: voice_mode,
 * voice_preview, voice_audio, voice_mode_state, session > state.voice_listeners, home > voice,
 * dictate_models > speaking, speaking_bench, speaking_results.
 */
export async function create(host: Host) {
  const area = () => host.config().areas.tts ?? {};
  const { speakers, probing, choice, configuredVoice, active } = speakingEngine(area);
  const listeners = new ListenerSet();
  const streams = new VoiceStreams((u) => host.emit(u));
  const bench = await SpeakingBench.open(
    host.state,
    `${host.stateDir}/voice/speaking_results.json`,
  );
  let previewError: string | null = null;

  const row = () =>
    speakingRow(speakers, choice(), {
      enabled: area().enabled === true,
      modelsDir: typeof area().models_dir === "string" ? area().models_dir as string : null,
      voice: configuredVoice(),
    }, previewError);
  const announce = () => host.speech?.announce?.();
  if (host.speech) {
    host.speech.speaking = {
      fields: () => ({
        speaking: row(),
        in_use: speakingInUse(speakers, choice()),
        speaking_bench: bench.view(),
        speaking_results: bench.results(),
      }),
    };
  }
  probing.then(announce);

  const apply = (move: SwitchMove) => {
    host.emit({ name: "voice_mode_state", fields: { key: move.slot, listeners: move.listeners } });
    if (!move.note) return;
    // spec: the note rides a [Voice] envelope as a delivery row, forge's own kind.
    host.deliver(move.slot, { text: VOICE_NOTES[move.note], source: "forge" }).catch((error) =>
      host.log.warn("voice_note_failed", { seat: slotName(move.slot), note: move.note, error })
    );
  };
  // spec: a closed client or a dropped socket empties the seat's listener set too.
  const watch = onEachClose((peer) => {
    for (const move of listeners.drop(peer.id)) apply(move);
  });
  const seatOrRefuse = (what: string, key: Slot) => {
    if (!host.workspace.seat(key)) {
      throw new Refusal(what, `${what}: ${notASeat(key)}`, key);
    }
  };

  return {
    verbs: {
      voice_mode: (m: ClientMessageOf<"voice_mode">, peer: Peer) => {
        seatOrRefuse("voice_mode", m.key);
        watch(peer);
        apply(listeners.set(m.key, peer.id, m.on, m.explicit));
      },
      voice_preview: async (m: ClientMessageOf<"voice_preview">) => {
        seatOrRefuse("voice_preview", m.key);
        if (listeners.count(m.key) === 0) {
          throw new Refusal(
            "voice_preview",
            `voice_preview: no client has voice on for ${
              slotName(m.key)
            }; turn the speaker on first`,
            m.key,
          );
        }
        let picked: { speaker: Speaker; voice: string };
        try {
          picked = await active(m.voice);
        } catch (err) {
          // An engine that cannot run is the preview's failure; an unknown voice is bad input.
          const why = (err as Error).message;
          if (err instanceof Unspeakable && err.part === "engine") {
            previewError = why;
            announce();
          }
          throw new Refusal("voice_preview", `voice_preview: ${why}`, m.key);
        }
        try {
          await streams.queue(
            m.key,
            [PREVIEW_LINE],
            (t) => picked.speaker.render(t, picked.voice),
            () => true,
          );
          previewError = null;
        } catch (err) {
          previewError = (err as Error).message;
          throw new Refusal("voice_preview", `voice_preview: ${previewError}`, m.key);
        } finally {
          announce();
        }
      },
    },
    commands: benchCommands({ host, bench, active, announce }),
    subjects: {},
    tools: toolHandlers(VOICE_TOOLS)({
      voice__say: sayTool({
        listeners: (slot) => listeners.count(slot),
        active: () => active(null),
        queue: (slot, clips, render) =>
          streams.queue(slot, clips, render, () => listeners.count(slot) > 0),
        log: host.log,
      }),
    }),
    sessionFields: (slot: Slot) => ({ state: { voice_listeners: listeners.count(slot) } }),
    homeFields: () => ({
      voice: {
        enabled: true,
        models_dir: typeof area().models_dir === "string" ? area().models_dir as string : null,
        speaking_model: choice().id,
        // A missing engine is said here, never a silent nothing.
        missing: missingOf(speakers, choice()),
      },
    }),
    stop: async () => {
      await probing;
      speakers.close();
    },
  };
}
