import { decodePcm, sameSlot, type Slot } from "../../../../protocol/mod.ts";
import { PcmPlayer } from "./pcm_player.ts";

/** How many clips past a missing one wait for it before the player moves on without it. */
const WAIT_FOR_MISSING = 3;

/**
 * A seat's speech as this page hears it: the `voice_audio` clips of the seat it listens to,
 * played in `seq` order back to back (a clip ahead of a missing one waits for it, briefly), and
 * nothing while its switch is off. spec: voice_mode ("that connection's own switch"),
 * voice_audio ("a client plays them only while its own voice is on").
 */
export class VoicePlayer {
  readonly player = new PcmPlayer();
  #seat: Slot | null = null;
  #last: number | null = null;
  #waiting = new Map<number, { rate: number; pcm: string }>();

  /** Starts listening to `seat`; call it from the person's click so the output may open. */
  listen(seat: Slot): void {
    this.player.open();
    this.#seat = seat;
    this.#last = null;
    this.#waiting.clear();
  }

  stop(): void {
    this.#seat = null;
    this.#waiting.clear();
    this.player.close();
  }

  get listening(): Slot | null {
    return this.#seat;
  }

  /** One clip from the stream. */
  clip(key: Slot, seq: number, rate: number, pcm: string): void {
    if (!this.#seat || !sameSlot(key, this.#seat)) return;
    if (this.#last !== null && seq <= this.#last) return;
    this.#waiting.set(seq, { rate, pcm });
    for (;;) {
      const next = this.#last === null ? Math.min(...this.#waiting.keys()) : this.#last + 1;
      const ready = this.#waiting.get(next);
      if (ready) {
        this.#waiting.delete(next);
        this.#play(next, ready);
      } else if (this.#waiting.size > WAIT_FOR_MISSING) {
        this.#last = Math.min(...this.#waiting.keys()) - 1;
      } else {
        return;
      }
    }
  }

  #play(seq: number, c: { rate: number; pcm: string }): void {
    this.#last = seq;
    const samples = decodePcm(c.pcm);
    this.player.play(seq, c.rate, 1, new Uint8Array(samples.buffer));
  }
}
