/// <reference lib="deno.worker" />
/**
 * The decode Worker: loads one engine's model and decodes whole takes, one at a time, on its own
 * thread. Messages are `WorkerRequest` / `WorkerReply` (engine.ts). A failure is answered in
 * words; nothing thrown here reaches the server's thread as an engine's own message.
 */
import type { EngineModel, WorkerReply, WorkerRequest } from "./engine.ts";
import { PocketSphinxDecoder } from "./pocketsphinx_ffi.ts";
import { loadWhisper } from "./whisper.ts";

interface Decoder {
  decode(pcm: Int16Array): Promise<string> | string;
}

let decoder: Decoder | null = null;
const reply = (m: WorkerReply) => self.postMessage(m);

async function load(model: EngineModel): Promise<Decoder> {
  if (model.engine === "pocketsphinx") return new PocketSphinxDecoder(model.path);
  return await loadWhisper(model.path);
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const msg = event.data;
  if (msg.op === "load") {
    const t0 = performance.now();
    try {
      decoder = await load(msg.model);
      reply({ op: "loaded", ms: performance.now() - t0 });
    } catch (err) {
      reply({ op: "load_failed", why: (err as Error).message ?? String(err) });
    }
    return;
  }
  if (!decoder) {
    reply({ op: "decode_failed", id: msg.id, why: "the model is not loaded" });
    return;
  }
  const t0 = performance.now();
  try {
    const text = await decoder.decode(new Int16Array(msg.pcm));
    reply({ op: "decoded", id: msg.id, text, ms: performance.now() - t0 });
  } catch (err) {
    reply({ op: "decode_failed", id: msg.id, why: (err as Error).message ?? String(err) });
  }
};
