import { decodePcm, sameSlot, type Slot } from "../../../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../../../server/clock.ts";
import { PcmPlayer } from "./pcm_player.ts";

/** How many clips past a missing one wait for it before the player moves on without it. */
const WAIT_FOR_MISSING = 3;
/** How long a clip ahead of a missing one waits before the player says so and moves on. */
export const MISSING_WAIT_MS = 2_000;

/** What the player plays through (Web Audio in the page; a recorder in a test). */
export type Output = Pick<PcmPlayer, "open" | "close" | "play">;

/**
 * A seat's speech as this page hears it: the `voice_audio` clips of the seat it listens to,
 * played in `seq` order back to back (a clip ahead of a missing one waits for it, briefly), and
 * nothing while its switch is off. A clip that never arrives is given up on after three more
 * clips or `MISSING_WAIT_MS`, whichever is first, and `onMissed` is told in words, so the speech
 * neither stalls silently nor skips without a word. spec: voice_mode ("that connection's own
 * switch"), voice_audio ("a client plays them only while its own voice is on").
 */
export class VoicePlayer {
  #seat: Slot | null = null;
  #last: number | null = null;
  #waiting = new Map<number, { rate: number; pcm: string }>();
  #timer: unknown = null;

  constructor(
    readonly player: Output = new PcmPlayer(),
    private readonly clock: Clock = MONOTONIC,
    private readonly onMissed: (words: string | null) => void = () => {},
  ) {}

  /** Starts listening to `seat`; call it from the person's click so the output may open. */
  listen(seat: Slot): void {
    this.player.open();
    this.#seat = seat;
    this.#last = null;
    this.#reset();
  }

  stop(): void {
    this.#seat = null;
    this.#reset();
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
    this.#drain(this.#waiting.size > WAIT_FOR_MISSING);
  }

  /** Plays what is next in order; `giveUp` skips past a missing clip to the first one held. */
  #drain(giveUp: boolean): void {
    for (;;) {
      const next = this.#last === null ? Math.min(...this.#waiting.keys()) : this.#last + 1;
      const ready = this.#waiting.get(next);
      if (ready) {
        this.#waiting.delete(next);
        this.#play(next, ready);
      } else if (giveUp && this.#waiting.size > 0) {
        const first = Math.min(...this.#waiting.keys());
        this.onMissed(
          first - next === 1
            ? `Clip ${next} of the speech never arrived; playing on from clip ${first}.`
            : `Clips ${next}-${
              first - 1
            } of the speech never arrived; playing on from clip ${first}.`,
        );
        this.#last = first - 1;
        giveUp = this.#waiting.size > WAIT_FOR_MISSING;
      } else break;
    }
    // The wait counts from when the gap was first seen, not from the newest clip held behind it.
    if (this.#waiting.size === 0) {
      this.clock.clear(this.#timer);
      this.#timer = null;
    } else if (this.#timer === null) {
      this.#timer = this.clock.set(() => {
        this.#timer = null;
        this.#drain(true);
      }, MISSING_WAIT_MS);
    }
  }

  #reset(): void {
    this.#waiting.clear();
    this.clock.clear(this.#timer);
    this.#timer = null;
    this.onMissed(null);
  }

  #play(seq: number, c: { rate: number; pcm: string }): void {
    this.#last = seq;
    const samples = decodePcm(c.pcm);
    this.player.play(seq, c.rate, 1, new Uint8Array(samples.buffer));
  }
}
