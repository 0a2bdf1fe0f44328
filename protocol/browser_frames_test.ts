import { assert, assertEquals } from "../tests/assert.ts";
import {
  decodeBrowserAudio,
  decodeBrowserFrame,
  encodeBrowserAudio,
  encodeBrowserFrame,
} from "./browser_frames.ts";

// spec: Binary messages > kind 1, the 19-byte header; the pixels cross untouched.
Deno.test("a browser frame round-trips its 19-byte header and keeps the bytes as given", () => {
  const bytes = new Uint8Array([82, 73, 70, 70, 1, 2, 3]);
  const frame = {
    profile: 3,
    tab: 2,
    seq: 70000,
    width: 1280,
    height: 720,
    format: 1,
    key: true,
    pageWidth: 640,
    pageHeight: 360,
    bytes,
  };
  const wire = encodeBrowserFrame(frame);
  assertEquals(wire.length, 19 + bytes.length);
  assertEquals([wire[0], wire[1], wire[2], wire[3], wire[4]], [1, 3, 0, 2, 0]);
  const back = decodeBrowserFrame(wire);
  assertEquals(back.ok && back.frame, { ...frame, bytes: wire.subarray(19) });
  assertEquals(back.ok && [...back.frame.bytes], [...bytes]);
  assertEquals(decodeBrowserFrame(wire.subarray(0, 10)).ok, false);
  let threw = false;
  try {
    encodeBrowserFrame({ ...frame, width: 70000 });
  } catch (e) {
    threw = e instanceof RangeError;
  }
  assert(threw, "a width past a u16 is refused, never wrapped");
});

// spec: Binary messages > kind 2, the 14-byte header; interleaved i16 samples behind it.
Deno.test("a browser audio packet round-trips its 14-byte header; a torn one is refused", () => {
  const samples = new Uint8Array([1, 0, 255, 255]);
  const audio = { profile: 4, tab: 1, seq: 9, rate: 48000, channels: 2, samples };
  const wire = encodeBrowserAudio(audio);
  const back = decodeBrowserAudio(wire);
  assertEquals(back.ok && { ...back.audio, samples: [...back.audio.samples] }, {
    ...audio,
    samples: [...samples],
  });
  assertEquals(decodeBrowserAudio(wire.subarray(0, 15)).ok, false, "an odd sample byte");
  assertEquals(decodeBrowserAudio(wire.subarray(0, 8)).ok, false, "a short header");
});
