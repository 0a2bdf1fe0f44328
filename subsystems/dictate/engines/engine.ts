/**
 * The speech engines behind one interface. A role (dictation today; `speaking` is the voice
 * issue's, which adds a `Speaker` beside `Transcriber` and a row in ENGINES) runs one model on one
 * engine. Every engine decodes inside a Worker (`decode_worker.ts`): a batch decode takes seconds
 * and the server's event loop must never wait on it.
 */

/**
 * The engines that can turn audio into words here: PocketSphinx (Debian's model, through FFI) is
 * the one whose model ships; whisper.cpp runs only on a ggml file already on disk.
 */
export type EngineId = "pocketsphinx" | "whisper";

/** What the Worker is asked to load: an engine and its model (a dir or a file). */
export interface EngineModel {
  engine: EngineId;
  /** PocketSphinx: the model directory; whisper: the ggml file. */
  path: string;
}

/** Where a decode spent its time, for the bench's per-stage numbers. */
export interface DecodeStages {
  model_load_ms: number;
  decode_ms: number;
}

export interface Transcript {
  text: string;
  stages: DecodeStages;
}

/** Turns a whole take into words off the event loop. Rejects with a sentence in forge's words. */
export interface Transcriber {
  readonly model: EngineModel;
  /** Resolves once the model is loaded (the preflight); rejects with the reason it could not. */
  ready(): Promise<void>;
  /** The words for one take of 16 kHz mono i16 samples. */
  transcribe(pcm: Int16Array): Promise<Transcript>;
  close(): void;
}

/** Messages to and from the decode Worker. */
export type WorkerRequest =
  | { op: "load"; model: EngineModel }
  | { op: "decode"; id: number; pcm: ArrayBuffer };

export type WorkerReply =
  | { op: "loaded"; ms: number }
  | { op: "load_failed"; why: string }
  | { op: "decoded"; id: number; text: string; ms: number }
  | { op: "decode_failed"; id: number; why: string };
