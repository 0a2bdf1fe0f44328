import type { DictateAxes, DictateOutcome, Slot, UpdateOf } from "../../../../protocol/mod.ts";
import { encodeDictationFrame, sameSlot } from "../../../../protocol/mod.ts";
import { type Mic, openMic } from "../audio/mic.ts";
import type { ClientCore } from "./client_core.ts";
import type { Take } from "./store.ts";
import type { TAKE_UPDATES } from "./updates.ts";

type TakeUpdate = UpdateOf<(typeof TAKE_UPDATES)[number]>;

/**
 * The composer's dictation: the microphone (audio/mic.ts) streamed as kind-0 frames between a
 * `dictate_stream` and a `dictate_stop`, and the take's own updates (started, level,
 * transcribing, progress, ended) drawn as its phases. spec: dictate_stream, Binary messages.
 */
export class Dictation {
  #mic: Mic | null = null;

  constructor(private readonly client: ClientCore) {}

  get #take(): Take | null {
    return this.client.state.take;
  }

  /** Starts a take on `seat`: the take registers first, so the frames that follow find it. */
  async start(seat: Slot, axes: DictateAxes): Promise<void> {
    const live = this.#take?.phase;
    if (this.#mic || live === "listening" || live === "opening") return;
    const take: Take = {
      seat,
      phase: "opening",
      peakDb: null,
      floorDb: null,
      progress: null,
      landed: null,
      why: null,
    };
    this.client.state.take = take;
    this.client.store.changed();
    this.client.command("dictate_stream", { key: seat, options: axes, surface: "composer" });
    try {
      const mic = await openMic((samples) => {
        this.client.link.sendBinary(encodeDictationFrame(samples));
      });
      // The person cancelled (or the page left the seat) while the browser opened it: the take
      // is over, so the microphone closes at once rather than streaming into nothing.
      if (this.#take !== take || take.phase === "ended" || take.stopped) {
        await mic.stop();
        return;
      }
      this.#mic = mic;
    } catch (err) {
      if (this.#take !== take || take.stopped) return;
      this.client.command("dictate_stop", { key: seat, submit: false });
      take.phase = "ended";
      take.why = err instanceof Error ? err.message : String(err);
      this.client.store.changed();
    }
  }

  /** Ends the take: `submit` transcribes what was said, otherwise it is dropped. */
  async stop(submit: boolean): Promise<void> {
    const take = this.#take;
    const mic = this.#mic;
    this.#mic = null;
    if (take) take.stopped = true;
    await mic?.stop();
    if (take && take.phase !== "ended") {
      this.client.command("dictate_stop", { key: take.seat, submit });
      // Cancelled before the server heard it start: nothing will come back to end it here.
      if (!submit && take.phase === "opening") {
        take.phase = "ended";
        take.why = "The take was cancelled.";
        this.client.store.changed();
      }
    }
  }

  /** The composer took the landed words (or the person dismissed the words of an ending). */
  consumed(): void {
    this.client.state.take = null;
    this.client.store.changed();
  }

  /** The page left the seat: a live take is dropped, not submitted. */
  left(): void {
    if (this.#mic || this.#take?.phase === "opening") void this.stop(false);
    this.client.state.take = null;
  }

  /** One of the take's own updates. */
  update(u: TakeUpdate): void {
    const take = this.#take;
    if (!take || !sameSlot(take.seat, u.fields.key)) return;
    switch (u.name) {
      case "dictate_started":
        take.phase = "listening";
        take.floorDb = u.fields.floor_db;
        return;
      case "dictate_level":
        take.peakDb = u.fields.peak_db;
        return;
      case "dictate_transcribing":
        take.phase = "transcribing";
        return;
      case "dictate_progress":
        take.progress = { done: u.fields.done, total: u.fields.total };
        return;
      case "dictate_ended": {
        void this.#mic?.stop();
        this.#mic = null;
        take.phase = "ended";
        const o = u.fields.outcome;
        if (typeof o === "object" && "landed" in o) take.landed = o.landed.text;
        else take.why = endingWords(o);
      }
    }
  }
}

/** A take that landed nothing, in words. catalogue: DictateOutcome. */
function endingWords(o: DictateOutcome): string {
  if (o === "empty") return "Nothing was heard that could be written down.";
  if (o === "failed") return "The take could not be transcribed.";
  if (o === "cancelled") return "The take was cancelled.";
  if (typeof o === "object" && "no_audio" in o) {
    return `No speech reached forge in ${o.no_audio.seconds} s` +
      (o.no_audio.peak_db === null ? " (digital silence)." : ` (peak ${o.no_audio.peak_db} dB).`);
  }
  if (typeof o === "object" && "refused" in o) return o.refused.message;
  return "The take ended.";
}
