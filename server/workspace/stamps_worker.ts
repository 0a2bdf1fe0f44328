/// <reference lib="deno.worker" />
/**
 * The stat thread of server/workspace/stamps.ts: answers a batch of paths with each one's
 * stamp, stat'ed one after another on this thread.
 */
import type { Stamp, StampBatch, StampReply } from "./stamps.ts";

function stamp(path: string): Stamp | null {
  try {
    const info = Deno.statSync(path);
    return { mtime: info.mtime?.getTime() ?? 0, size: info.size, isDirectory: info.isDirectory };
  } catch {
    // A probe: a path that will not stat has no stamp, which is the answer.
    return null;
  }
}

self.onmessage = (e: MessageEvent<StampBatch>) => {
  const reply: StampReply = { id: e.data.id, stamps: e.data.paths.map(stamp) };
  self.postMessage(reply);
};
