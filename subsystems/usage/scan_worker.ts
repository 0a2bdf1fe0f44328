/**
 * One reader thread of a cold scan: reads the transcripts it is handed and posts each file's
 * records back. The pool's first scan spreads its files over the machine's cores this way
 * (scan.ts); the records are the same `readTranscript` gives on the main thread.
 */
import { readTranscript, type TranscriptRead } from "./transcript.ts";

/** What the scanner sends: the files this thread reads, largest first. */
export interface ReadRequest {
  paths: string[];
}

/** One file's answer: its records, or why it could not be read. */
export type ReadAnswer =
  | { path: string; read: TranscriptRead }
  | { path: string; error: string }
  | { done: true };

const self = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadAnswer): void;
};

self.onmessage = async (e) => {
  for (const path of e.data.paths) {
    try {
      self.postMessage({ path, read: await readTranscript(path) });
    } catch (err) {
      self.postMessage({ path, error: err instanceof Error ? err.message : String(err) });
    }
  }
  self.postMessage({ done: true });
};
