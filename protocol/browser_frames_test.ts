import { assert, assertEquals } from "../tests/assert.ts";
import { decodeBrowserFrame, encodeBrowserFrame } from "./browser_frames.ts";

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
