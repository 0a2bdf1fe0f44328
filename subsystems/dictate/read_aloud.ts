import type { Wire } from "../../protocol/mod.ts";
import { sha256Hex } from "./digest.ts";
import { encodeWav } from "./wav.ts";

/** The fixed passage a person reads into the set, and the terms a bench run scores. */
export const PASSAGE =
  "Run the tests and build the project. Then push the branch to origin and report any warnings.";
export const TERMS = ["tests", "project", "branch", "origin", "warnings"];
/** One reading is at most this long; frames past it are not kept. */
const MAX_SAMPLES = 5 * 60 * 16_000;

export interface Recording {
  id: string;
  duration_ms: number;
  bytes: number;
  sha256: string;
  at: number;
}

/**
 * The read-aloud set: recordings of the passage kept under the state dir (16 kHz mono WAV, with
 * duration, bytes and SHA-256), recorded one at a time from one connection's kind-0 frames.
 * spec: dictate_read_aloud_start/_stop/_delete, dictate_models > read_aloud.
 */
export class ReadAloudSet {
  #recordings: Recording[] = [];
  #recording: { conn: number; chunks: Int16Array[]; samples: number } | null = null;
  error: string | null = null;

  private constructor(readonly dir: string) {}

  static async open(dir: string): Promise<ReadAloudSet> {
    await Deno.mkdir(dir, { recursive: true });
    const set = new ReadAloudSet(dir);
    try {
      set.#recordings = JSON.parse(await Deno.readTextFile(`${dir}/index.json`));
    } catch {
      // No set yet.
    }
    return set;
  }

  get recordings(): readonly Recording[] {
    return this.#recordings;
  }

  /** The connection recording now, or null. */
  get recorder(): number | null {
    return this.#recording?.conn ?? null;
  }

  start(conn: number): void {
    if (this.#recording) {
      throw new Error(
        this.#recording.conn === conn
          ? "this connection is already recording the passage"
          : "another connection is recording the passage",
      );
    }
    this.#recording = { conn, chunks: [], samples: 0 };
  }

  /** Feeds a frame; false when this connection is not recording. */
  frame(conn: number, samples: Int16Array): boolean {
    const r = this.#recording;
    if (!r || r.conn !== conn) return false;
    const kept = samples.subarray(0, Math.max(0, MAX_SAMPLES - r.samples));
    if (kept.length > 0) {
      r.chunks.push(kept.slice());
      r.samples += kept.length;
    }
    return true;
  }

  /** Ends this connection's recording: kept as a WAV in the set, or discarded. */
  async stop(conn: number, keep: boolean): Promise<Recording | null> {
    const r = this.#recording;
    if (!r || r.conn !== conn) throw new Error("this connection is not recording the passage");
    this.#recording = null;
    if (!keep) return null;
    if (r.samples === 0) throw new Error("nothing was recorded: no audio frames arrived");
    const pcm = new Int16Array(r.samples);
    let at = 0;
    for (const c of r.chunks) {
      pcm.set(c, at);
      at += c.length;
    }
    const wav = encodeWav(pcm);
    const rec: Recording = {
      id: crypto.randomUUID(),
      duration_ms: Math.round(r.samples / 16),
      bytes: wav.length,
      sha256: await sha256Hex(wav),
      at: Date.now(),
    };
    try {
      await Deno.writeFile(`${this.dir}/${rec.id}.wav`, wav);
      this.#recordings = [...this.#recordings, rec];
      await this.#save();
      this.error = null;
    } catch (err) {
      this.error = `the recording could not be kept: ${(err as Error).message}`;
      throw new Error(this.error);
    }
    return rec;
  }

  /** The connection went away: its recording is discarded. */
  cancel(conn: number): void {
    if (this.#recording?.conn === conn) this.#recording = null;
  }

  async remove(id: string): Promise<void> {
    if (!this.#recordings.some((r) => r.id === id)) throw new Error(`no recording is ${id}`);
    this.#recordings = this.#recordings.filter((r) => r.id !== id);
    await Deno.remove(`${this.dir}/${id}.wav`).catch(() => {});
    await this.#save();
  }

  path(id: string): string {
    return `${this.dir}/${id}.wav`;
  }

  view(time: (ms: number) => Wire): Wire {
    return {
      recordings: this.#recordings.map((r) => ({ ...r, at: time(r.at) })),
      recording: this.#recording !== null,
      passage: PASSAGE,
      terms: TERMS,
      error: this.error,
    };
  }

  async #save(): Promise<void> {
    await Deno.writeTextFile(`${this.dir}/index.json.tmp`, JSON.stringify(this.#recordings));
    await Deno.rename(`${this.dir}/index.json.tmp`, `${this.dir}/index.json`);
  }
}
