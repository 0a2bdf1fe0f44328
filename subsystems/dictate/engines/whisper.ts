/**
 * whisper.cpp through `@fugood/node-whisper-linux-x64` (an N-API addon; no model ships with it),
 * for a ggml model a person installed from a file on disk. Runs inside the decode Worker. The
 * take crosses as a 16 kHz mono WAV in a temp file, the input whisper.cpp reads natively.
 */
import { createRequire } from "node:module";
import { encodeWav } from "../wav.ts";
import { forgeTempDir } from "../../../server/temp_dir.ts";

interface TranscribeJob {
  promise: Promise<{ result: string; isAborted: boolean }>;
}
interface WhisperContextLike {
  transcribeFile(path: string, opts?: { language?: string }): TranscribeJob;
  release(): Promise<void>;
}
interface WhisperModule {
  WhisperContext: new (opts: { filePath: string; useGpu?: boolean }) => WhisperContextLike;
}

/** Loads a ggml model; rejects with a sentence when the addon or the model will not load. */
export async function loadWhisper(
  file: string,
): Promise<{ decode(pcm: Int16Array): Promise<string> }> {
  try {
    await Deno.stat(file);
  } catch {
    throw new Error(`the whisper model ${file} is not on disk`);
  }
  let mod: WhisperModule;
  try {
    mod = createRequire(import.meta.url)("@fugood/node-whisper-linux-x64") as WhisperModule;
  } catch (err) {
    throw new Error(`the whisper.cpp runtime did not load: ${(err as Error).message}`);
  }
  let ctx: WhisperContextLike;
  try {
    ctx = new mod.WhisperContext({ filePath: file, useGpu: false });
  } catch {
    throw new Error(`${file} is not a ggml whisper model whisper.cpp can load`);
  }
  await Promise.resolve();
  return {
    async decode(pcm: Int16Array): Promise<string> {
      const wav = await Deno.makeTempFile({
        dir: await forgeTempDir(),
        prefix: "forge-take-",
        suffix: ".wav",
      });
      try {
        await Deno.writeFile(wav, encodeWav(pcm));
        const out = await ctx.transcribeFile(wav, { language: "en" }).promise;
        return out.result.trim();
      } finally {
        await Deno.remove(wav).catch(() => {/* never written: nothing to remove */});
      }
    },
  };
}
