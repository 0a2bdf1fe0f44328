import { assertEquals } from "../../tests/assert.ts";
import { decodeWav, encodeWav } from "./wav.ts";

const refusal = (bytes: Uint8Array) => {
  try {
    decodeWav(bytes, "upload.wav");
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

Deno.test("wav: 16 kHz mono s16 round-trips sample for sample", () => {
  const samples = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
  assertEquals(Array.from(decodeWav(encodeWav(samples))), Array.from(samples));
});

Deno.test("wav: another format or no WAV at all is refused in forge's words, naming the file", () => {
  assertEquals(refusal(new TextEncoder().encode("hello")), "upload.wav is not a WAV file");
  const stereo = encodeWav(new Int16Array(4), 44_100);
  new DataView(stereo.buffer).setUint16(22, 2, true);
  assertEquals(
    refusal(stereo),
    "upload.wav is 44100 Hz, 2 channel(s), 16-bit; forge reads 16 kHz mono 16-bit PCM",
  );
  assertEquals(
    refusal(encodeWav(new Int16Array(0)).subarray(0, 36)),
    "upload.wav has no audio data",
  );
});
