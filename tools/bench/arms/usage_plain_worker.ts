/**
 * The usage bench's plain-TypeScript reader thread: the same job as the scan's own reader
 * threads (subsystems/usage/scan_worker.ts: one file at a time, its records packed and posted
 * back), read the plain way - each file decoded as text and every line carrying `"usage"`
 * parsed whole with `JSON.parse` (`TranscriptParser`, the parse the byte reader is checked
 * against) - in place of the WebAssembly byte search and walk. The bench runs both on the same
 * pool in the same pairs: the walker stays only while it beats this by the margin the bench
 * states.
 */
import { packRead } from "../../../subsystems/usage/packed.ts";
import type { ReadAnswer, ReadRequest } from "../../../subsystems/usage/scan_worker.ts";
import { TranscriptParser } from "../../../subsystems/usage/transcript.ts";

const self = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadAnswer, transfer?: Transferable[]): void;
};

const buf = new Uint8Array(1 << 20);

function readPlain(path: string) {
  const parser = new TranscriptParser();
  const decoder = new TextDecoder();
  using file = Deno.openSync(path, { read: true });
  for (let n = file.readSync(buf); n !== null; n = file.readSync(buf)) {
    parser.push(decoder.decode(buf.subarray(0, n), { stream: true }));
  }
  parser.push(decoder.decode());
  return packRead(parser.end());
}

self.onmessage = (e) => {
  for (const path of e.data.paths) {
    try {
      const read = readPlain(path);
      self.postMessage({ path, read }, [read.nums.buffer]);
    } catch (err) {
      self.postMessage({ path, error: err instanceof Error ? err.message : String(err) });
    }
  }
};
