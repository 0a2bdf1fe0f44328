/**
 * One reader thread of a cold scan: reads the transcripts it is handed from their bytes
 * (transcript_bytes.ts) and posts each file's records back packed (packed.ts). The pool's first
 * scan spreads its files over the machine's cores this way (scan.ts).
 */
import type { PackedRead } from "./packed.ts";
import { TranscriptBytes } from "./transcript_bytes.ts";

/** What the scanner sends: files for this thread to read next. */
export interface ReadRequest {
  paths: string[];
}

/** One file's answer: its records, or why it could not be read. */
export type ReadAnswer =
  | { path: string; read: PackedRead }
  | { path: string; error: string };

const self = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadAnswer, transfer?: Transferable[]): void;
};

const reader = new TranscriptBytes();
self.onmessage = (e) => {
  for (const path of e.data.paths) {
    try {
      const read = reader.readPackedSync(path);
      self.postMessage({ path, read }, [read.nums.buffer]);
    } catch (err) {
      self.postMessage({ path, error: err instanceof Error ? err.message : String(err) });
    }
  }
};
