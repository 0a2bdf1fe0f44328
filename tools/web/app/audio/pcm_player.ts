/**
 * Plays i16 PCM clips through Web Audio back to back: each clip is scheduled at the previous
 * one's end time, so consecutive clips meet with no gap and never overlap; a clip that arrives
 * after the previous one finished starts now. What it scheduled is kept (newest 200) so a test
 * or a person at the console can read the schedule back.
 */
export interface Scheduled {
  seq: number;
  /** The context's clock when the clip arrived, its start and its end, in seconds. */
  arrived: number;
  start: number;
  end: number;
}

const KEEP = 200;

export class PcmPlayer {
  #context: AudioContext | null = null;
  #end = 0;
  readonly scheduled: Scheduled[] = [];

  /** Opens (or resumes) the audio output; call it from the person's own click. */
  open(): void {
    this.#context ??= new AudioContext();
    void this.#context.resume();
  }

  get open_(): boolean {
    return this.#context !== null;
  }

  /** Schedules one clip; `lateBy` drops a clip that would start this far behind its place. */
  play(seq: number, rate: number, channels: number, bytes: Uint8Array, lateBy?: number): void {
    const ctx = this.#context;
    if (!ctx || channels < 1 || rate < 3000) return;
    const frames = Math.floor(bytes.length / 2 / channels);
    if (frames === 0) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const buffer = ctx.createBuffer(channels, frames, rate);
    for (let c = 0; c < channels; c++) {
      const out = buffer.getChannelData(c);
      for (let i = 0; i < frames; i++) out[i] = view.getInt16((i * channels + c) * 2, true) / 32768;
    }
    const now = ctx.currentTime;
    if (lateBy !== undefined && this.#end > 0 && now - this.#end > lateBy) this.#end = 0;
    const start = Math.max(now, this.#end);
    const node = ctx.createBufferSource();
    node.buffer = buffer;
    node.connect(ctx.destination);
    node.start(start);
    this.#end = start + buffer.duration;
    this.scheduled.push({ seq, arrived: now, start, end: this.#end });
    if (this.scheduled.length > KEEP) this.scheduled.splice(0, this.scheduled.length - KEEP);
  }

  /** Stops every clip and lets the output go. */
  close(): void {
    void this.#context?.close();
    this.#context = null;
    this.#end = 0;
  }
}
