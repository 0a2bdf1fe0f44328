import { ownWords } from "../../server/words.ts";
import { type Slot, slotName } from "../../protocol/mod.ts";
import type { Logger } from "../../server/log.ts";
import type { ToolCall, ToolHandlerOf, ToolResult } from "../../server/subsystem.ts";
import type { VOICE_TOOLS } from "./tool_specs.ts";
import type { Clip, Speaker } from "./engines/speaker.ts";
import { MAX_SAY_CHARS, sentences } from "./split.ts";

export interface SayDeps {
  listeners(slot: Slot): number;
  /** The engine and voice that speak now; throws the sentence why nothing can. */
  active(): Promise<{ speaker: Speaker; voice: string }>;
  /** Queues the clips on the seat's stream; resolves when the last is emitted. */
  queue(slot: Slot, clips: string[], render: (text: string) => Promise<Clip>): Promise<number>;
  log: Logger;
}

/**
 * `voice__say {text}`: the text split at sentences, queued on the calling seat's
 * voice stream; the call returns once the clips are queued, not when they are played. With nobody
 * listening it says so and renders nothing; past `MAX_SAY_CHARS` it is refused in words.
 */
export function sayTool(deps: SayDeps): ToolHandlerOf<typeof VOICE_TOOLS[0]["input"]> {
  return async ({ text }, call: ToolCall): Promise<ToolResult> => {
    const slot = call.seat.slot;
    if (text.length > MAX_SAY_CHARS) {
      return {
        isError: true,
        text: `voice__say: the text is ${text.length} characters and one call takes at most ` +
          `${MAX_SAY_CHARS}; nothing was spoken. Say the substance in fewer words.`,
      };
    }
    const clips = sentences(text);
    if (clips.length === 0) {
      return { isError: true, text: "voice__say: there are no words to say." };
    }
    if (deps.listeners(slot) === 0) {
      return { text: "Nobody is listening on this seat, so nothing was spoken." };
    }
    let picked: { speaker: Speaker; voice: string };
    try {
      picked = await deps.active();
    } catch (err) {
      const why = ownWords(err, {
        log: deps.log,
        event: "voice_say_refused",
        fallback: "the speaking voice could not be made ready; the log has the cause",
      });
      return { isError: true, text: `voice__say: nothing was spoken: ${why}` };
    }
    deps.queue(slot, clips, (t) => picked.speaker.render(t, picked.voice)).catch((error) =>
      deps.log.warn("voice_render_failed", { seat: slotName(slot), error })
    );
    const n = deps.listeners(slot);
    const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? "" : "s"}`;
    return {
      text: `Queued ${plural(clips.length, "clip")} for ${
        plural(n, "listener")
      }; they play in order.`,
    };
  };
}
