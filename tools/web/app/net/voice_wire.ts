import { type Slot, slotName, type UpdateOf } from "../../../../protocol/mod.ts";
import { VoicePlayer } from "../audio/voice.ts";
import type { ClientCore } from "./client_core.ts";

type VoiceUpdate = UpdateOf<"voice_audio" | "voice_mode_state">;

/**
 * This page's voice switch, per seat: `voice_mode` on a click (explicit), paused with
 * `explicit: false` when the page leaves the seat and resumed when it comes back (the intent is
 * kept), and sent again on a new connection because the server's listener set died with the old
 * one. spec: voice_mode, voice_preview, voice_audio.
 */
export class VoiceWire {
  readonly player: VoicePlayer;
  /** The seats this page means to listen to. */
  #intent = new Set<string>();

  constructor(private readonly client: ClientCore) {
    // The client's clock is read per call: it is set after this wire is made.
    const clock = {
      now: () => client.clock.now(),
      set: (fn: () => void, ms: number) => client.clock.set(fn, ms),
      clear: (id: unknown) => client.clock.clear(id),
    };
    this.player = new VoicePlayer(undefined, clock, (words) => {
      client.state.voiceMissed = words;
      client.store.changed();
    });
  }

  /** The person's switch on the seat on screen. */
  set(seat: Slot, on: boolean): void {
    if (on) {
      this.#intent.add(slotName(seat));
      this.player.listen(seat);
    } else {
      this.#intent.delete(slotName(seat));
      this.player.stop();
    }
    this.client.state.voiceOn = on;
    this.client.send({ kind: "voice_mode", key: seat, on, explicit: true });
    this.client.store.changed();
  }

  /** Auditions `voice` on the seat's own stream (needs the switch on; the core says so if not). */
  preview(seat: Slot, voice: string | null): void {
    this.client.send({ kind: "voice_preview", key: seat, voice });
  }

  /** The page showed `seat` (a visit or a re-attach): listening resumes where it was meant. */
  shown(seat: Slot): void {
    const on = this.#intent.has(slotName(seat));
    this.client.state.voiceOn = on;
    if (!on) return;
    this.player.listen(seat);
    this.client.send({ kind: "voice_mode", key: seat, on: true, explicit: false });
  }

  /** The page left `seat`: the seat pauses without the agent being told to stop. */
  left(seat: Slot): void {
    this.client.state.voiceOn = false;
    if (!this.#intent.has(slotName(seat))) return;
    this.player.stop();
    this.client.send({ kind: "voice_mode", key: seat, on: false, explicit: false });
  }

  update(u: VoiceUpdate): void {
    if (u.name === "voice_audio") {
      this.player.clip(u.fields.key, u.fields.seq, u.fields.sample_rate, u.fields.pcm);
    }
  }
}
