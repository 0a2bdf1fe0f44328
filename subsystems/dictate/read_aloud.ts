import { z } from "zod";
import type { ReadAloudRead, WireTime } from "../../protocol/mod.ts";
import {
  type KeptFile,
  schemaParse,
  type StateKeeper,
  StateWriteError,
} from "../../server/subsystem.ts";
import { sha256Hex } from "./digest.ts";
import { encodeWav } from "./wav.ts";

/** The fixed passage a person reads into the set, and the terms a bench run scores. */
export const PASSAGE =
  "Run the tests and build the project. Then push the branch to origin and report any warnings.";
export const TERMS = ["tests", "project", "branch", "origin", "warnings"];
/** One reading is at most this long; frames past it are not kept. */
const MAX_SAMPLES = 5 * 60 * 16_000;

const Recording = z.object({
  id: z.string().uuid(),
  duration_ms: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  at: z.number(),
});
export type Recording = z.infer<typeof Recording>;
const Index = z.array(Recording);

/**
 * The read-aloud set: recordings of the passage kept under the state dir (16 kHz mono WAV, with
 * duration, bytes and SHA-256), recorded one at a time from one connection's kind-0 frames.
 * spec: dictate_read_aloud_start/_stop/_delete, dictate_models > read_aloud. The index and
 * the recordings are written through forge's keeper: a damaged index is kept aside, `error`
 * says so, and recording and deleting are refused until it is mended or removed.
 */
export class ReadAloudSet {
  #recordings: Recording[] = [];
  #recording: { conn: number; chunks: Int16Array[]; samples: number } | null = null;
  #error: string | null = null;

  private constructor(
    readonly dir: string,
    private readonly keeper: StateKeeper,
    private readonly index: KeptFile<Recording[]>,
  ) {}

  static async open(keeper: StateKeeper, dir: string): Promise<ReadAloudSet> {
    const set = new ReadAloudSet(
      dir,
      keeper,
      keeper.file(`${dir}/index.json`, {
        area: "the read-aloud set",
        parse: schemaParse(Index, "a read-aloud index"),
      }),
    );
    const read = await set.index.read();
    if (read.state === "read") set.#recordings = read.value;
    return set;
  }

  /** The set's error: a damaged index, or the last recording that could not be kept. */
  get error(): string | null {
    return this.index.damage ?? this.#error;
  }

  get recordings(): readonly Recording[] {
    return this.#recordings;
  }

  /** The connection recording now, or null. */
  get recorder(): number | null {
    return this.#recording?.conn ?? null;
  }

  start(conn: number): void {
    if (this.index.damage) throw new StateWriteError(this.index.path, "damaged", this.index.damage);
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
      await this.#mended();
      await this.keeper.writeBytes(this.path(rec.id), wav);
      await this.#save([...this.#recordings, rec]);
      this.#error = null;
    } catch (err) {
      const why = err instanceof StateWriteError ? err.message : "forge could not write it";
      if (!(err instanceof StateWriteError)) {
        this.keeper.log.error("read_aloud_unkept", { id: rec.id, error: err });
      }
      this.#error = `the recording could not be kept: ${why}`;
      await Deno.remove(this.path(rec.id)).catch(
        () => {/* never written, or the index names it */},
      );
      throw new Error(this.#error);
    }
    return rec;
  }

  /** The connection went away: its recording is discarded. */
  cancel(conn: number): void {
    if (this.#recording?.conn === conn) this.#recording = null;
  }

  async remove(id: string): Promise<void> {
    await this.#mended();
    if (!this.#recordings.some((r) => r.id === id)) throw new Error(`no recording is ${id}`);
    await this.#save(this.#recordings.filter((r) => r.id !== id));
    await Deno.remove(this.path(id)).catch((error) =>
      // The index no longer names it: a file that will not go is only disk, never a claim.
      this.keeper.log.warn("read_aloud_file_unremoved", { id, error })
    );
  }

  path(id: string): string {
    return `${this.dir}/${id}.wav`;
  }

  view(time: (ms: number) => WireTime): ReadAloudRead {
    return {
      recordings: this.#recordings.map((r) => ({ ...r, at: time(r.at) })),
      recording: this.#recording !== null,
      passage: PASSAGE,
      terms: TERMS,
      error: this.error,
    };
  }

  /** A damaged index refuses (the keeper's words); a mended one is read back first. */
  async #mended(): Promise<void> {
    const read = await this.index.writable();
    if (read) this.#recordings = read.state === "read" ? read.value : [];
  }

  /** The set moves only once the index landed. */
  async #save(recordings: Recording[]): Promise<void> {
    await this.index.write(recordings);
    this.#recordings = recordings;
  }
}
