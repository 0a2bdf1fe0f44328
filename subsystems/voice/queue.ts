import { encodePcm, type SessionUpdate, type Slot, slotName } from "../../protocol/mod.ts";
import type { Clip } from "./engines/speaker.ts";

/**
 * Each seat's voice stream (spec: voice_audio): clips render one after another in the order they
 * were queued, and each is numbered on the seat's own counter as it is emitted, so `seq` is
 * render order. Seats render side by side; a render runs in a child process or a Worker, never
 * on the event loop.
 */
export class VoiceStreams {
  readonly #seq = new Map<string, number>();
  readonly #tail = new Map<string, Promise<unknown>>();

  constructor(private readonly emit: (update: SessionUpdate) => void) {}

  /**
   * Queues `texts` as clips behind whatever the seat is already saying. Resolves once every clip
   * is emitted; rejects with the render's own sentence (later clips of the batch are dropped).
   * `live` is read before each render: a seat nobody listens to any more stops rendering.
   */
  queue(
    slot: Slot,
    texts: string[],
    render: (text: string) => Promise<Clip>,
    live: () => boolean,
  ): Promise<number> {
    const name = slotName(slot);
    const run = async () => {
      let sent = 0;
      for (const text of texts) {
        if (!live()) break;
        const clip = await render(text);
        const seq = this.#seq.get(name) ?? 0;
        this.#seq.set(name, seq + 1);
        this.emit({
          name: "voice_audio",
          fields: { key: slot, seq, sample_rate: clip.sampleRate, pcm: encodePcm(clip.samples) },
        });
        sent++;
      }
      return sent;
    };
    const done = (this.#tail.get(name) ?? Promise.resolve()).then(run);
    // The queue's own copy: the caller's `done` carries the failure; the queue carries on.
    this.#tail.set(name, done.catch(() => 0));
    return done;
  }
}
