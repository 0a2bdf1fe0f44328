import { sha256Hex } from "../subsystems/dictate/digest.ts";
import { decodeWav } from "../subsystems/dictate/wav.ts";

/**
 * Test speech made by a real TTS: Debian's flite, voice `rms` (16 kHz, the wire's rate), with
 * 0.5 s of silence on each side. flite is byte-identical run to run, so each rendering is pinned
 * by the SHA-256 of its samples: a different flite fails loudly here rather than as a wrong
 * transcript.
 */

/** Sentences this decoder path (fresh batch decode of flite rms) gets exactly, with their pins. */
export const EXACT: Record<string, string> = {
  "run the tests": "0d6fb4e70152e46f531192ad135da8ee221be4de62398d9f5b9846e40d811f74",
  "push the branch to origin": "42f4dc6a60c2b5d8bbba7983276bf80dd275593fb81d7722dacf5516eac4a2e8",
  "install the dependencies": "4c73fcc4dfc6c1e2090779663fada4688b025293682a75d79226fbc678ae43f8",
  "explain what this error means":
    "4ba6d7b4a590017ae45cce24cf05e0d1ac7855fa0588717ab6c7a14f020bb0c0",
  "create a new branch called feature search":
    "6b74531cb0869a6c099484fb10598efa28022bdeae95e35765173803ce31509e",
  "delete the unused imports": "2f149c4052fc3eb6efef8b8c90f62809df097662dcfb93c4da4934926de02b13",
  "close the terminal": "9b55ff21abfdc581eee5a56586cad19c6e88f9ec6dbc77cd45e3d6541647c88c",
  "build the project and report any warnings":
    "27442001a78a248cebda36735f47a6fc29b3ba4aefc11b40db44e9eb079844cd",
};

const cache = new Map<string, Int16Array>();

export async function flite(text: string, voice = "rms"): Promise<Int16Array> {
  const hit = cache.get(`${voice}:${text}`);
  if (hit) return hit;
  const out = await Deno.makeTempFile({ suffix: ".wav" });
  try {
    const run = await new Deno.Command("flite", {
      args: ["-voice", voice, "-t", text, "-o", out],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!run.success) throw new Error(`flite failed: ${new TextDecoder().decode(run.stderr)}`);
    const speech = decodeWav(await Deno.readFile(out), `flite's rendering of "${text}"`);
    const padded = new Int16Array(speech.length + 16_000);
    padded.set(speech, 8_000);
    cache.set(`${voice}:${text}`, padded);
    return padded;
  } finally {
    await Deno.remove(out).catch(() => {});
  }
}

/** SHA-256 of the samples as little-endian bytes. */
export async function sampleDigest(samples: Int16Array): Promise<string> {
  return await sha256Hex(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
}

/** Renders `text` and checks the pin; throws naming the drift. */
export async function pinnedFlite(text: string): Promise<Int16Array> {
  const samples = await flite(text);
  const want = EXACT[text];
  const got = await sampleDigest(samples);
  if (want && got !== want) {
    throw new Error(
      `flite rendered "${text}" as ${got}, not the pinned ${want}: a different flite?`,
    );
  }
  return samples;
}

/** One 20 ms frame's worth of samples at a time, as a client captures them. */
export function* frames(samples: Int16Array, size = 320): Generator<Int16Array> {
  for (let o = 0; o < samples.length; o += size) yield samples.subarray(o, o + size);
}
