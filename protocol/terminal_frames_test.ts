import {
  decodeTerminalInput,
  decodeTerminalOutput,
  encodeTerminalInput,
  encodeTerminalOutput,
  OUTPUT_HEADER_BYTES,
  writeTerminalOutputHeader,
} from "./terminal_frames.ts";

function assertEq(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

Deno.test("kind 4: header is u8 kind, u16 LE id, u32 LE seq, then the bytes (spec: Binary messages)", () => {
  const frame = encodeTerminalOutput(0x0102, 0x03040506, new Uint8Array([65, 66]));
  assertEq(Array.from(frame), [4, 0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 65, 66], "wire bytes");
  const back = decodeTerminalOutput(frame);
  if (!back.ok) throw new Error(back.why);
  assertEq([back.frame.id, back.frame.seq, Array.from(back.frame.bytes)], [0x0102, 0x03040506, [
    65,
    66,
  ]], "round trip");
});

Deno.test("kind 4: the largest id and seq survive, an empty payload is a valid frame", () => {
  const back = decodeTerminalOutput(encodeTerminalOutput(0xffff, 0xffffffff, new Uint8Array()));
  if (!back.ok) throw new Error(back.why);
  assertEq(
    [back.frame.id, back.frame.seq, back.frame.bytes.length],
    [0xffff, 0xffffffff, 0],
    "max",
  );
});

Deno.test("kind 4: a short header or another kind is refused with a sentence", () => {
  for (let n = 0; n < 7; n++) {
    const frame = new Uint8Array(n);
    if (n > 0) frame[0] = 4;
    const got = decodeTerminalOutput(frame);
    if (got.ok) throw new Error(`a ${n}-byte frame decoded`);
    if (n > 0 && !got.why.includes("shorter than its 7-byte header")) throw new Error(got.why);
  }
  const wrong = decodeTerminalOutput(encodeTerminalInput(1, new Uint8Array(8)));
  if (wrong.ok || !wrong.why.includes("kind 5 is not 4")) throw new Error("kind 5 decoded as 4");
});

Deno.test("kind 4: a decode reads at the view's offset, not the buffer's start", () => {
  const frame = encodeTerminalOutput(9, 77, new Uint8Array([1, 2, 3]));
  const padded = new Uint8Array(frame.length + 5);
  padded.set(frame, 5);
  const back = decodeTerminalOutput(padded.subarray(5));
  if (!back.ok) throw new Error(back.why);
  assertEq(
    [back.frame.id, back.frame.seq, Array.from(back.frame.bytes)],
    [9, 77, [1, 2, 3]],
    "offset",
  );
});

Deno.test("kind 4: a header written in place frames the payload after it, as encoding does", () => {
  const buffer = new Uint8Array(3 + OUTPUT_HEADER_BYTES + 3);
  buffer.set([1, 2, 3], 3 + OUTPUT_HEADER_BYTES);
  const frame = writeTerminalOutputHeader(buffer.subarray(3), 9, 77);
  assertEq(
    Array.from(frame),
    Array.from(encodeTerminalOutput(9, 77, new Uint8Array([1, 2, 3]))),
    "in place",
  );
  if (frame.buffer !== buffer.buffer || frame.byteOffset !== 3) throw new Error("copied");
  let threw = false;
  try {
    writeTerminalOutputHeader(new Uint8Array(OUTPUT_HEADER_BYTES), 1, 2 ** 32);
  } catch (e) {
    threw = e instanceof RangeError;
  }
  if (!threw) throw new Error("a seq past u32 was written");
});

Deno.test("kind 5: header is u8 kind, u16 LE id, then the keystrokes", () => {
  const frame = encodeTerminalInput(0x0a0b, new TextEncoder().encode("ls\r"));
  assertEq(Array.from(frame), [5, 0x0b, 0x0a, 108, 115, 13], "wire bytes");
  const back = decodeTerminalInput(frame);
  if (!back.ok) throw new Error(back.why);
  assertEq(
    [back.frame.id, new TextDecoder().decode(back.frame.bytes)],
    [0x0a0b, "ls\r"],
    "round trip",
  );
});

Deno.test("kind 5: a short header or another kind is refused with a sentence", () => {
  for (const bytes of [[], [5], [5, 1]]) {
    const got = decodeTerminalInput(new Uint8Array(bytes));
    if (got.ok) throw new Error(`a ${bytes.length}-byte frame decoded`);
  }
  const short = decodeTerminalInput(new Uint8Array([5, 1]));
  if (short.ok || !short.why.includes("shorter than its 3-byte header")) throw new Error("short");
  const wrong = decodeTerminalInput(encodeTerminalOutput(1, 1, new Uint8Array()));
  if (wrong.ok || !wrong.why.includes("kind 4 is not 5")) throw new Error("kind 4 decoded as 5");
});

Deno.test("encoders refuse an id or seq that would wrap", () => {
  for (
    const make of [
      () => encodeTerminalOutput(0x10000, 0, new Uint8Array()),
      () => encodeTerminalOutput(1, 2 ** 32, new Uint8Array()),
      () => encodeTerminalOutput(-1, 0, new Uint8Array()),
      () => encodeTerminalInput(1.5, new Uint8Array()),
    ]
  ) {
    let threw = false;
    try {
      make();
    } catch (e) {
      threw = e instanceof RangeError;
    }
    if (!threw) throw new Error("an out-of-range header was encoded");
  }
});
