import { assertEquals } from "../tests/assert.ts";
import { decodeClientBinary } from "./binary.ts";
import { DictateOutcome, dictationSamples, encodeDictationFrame } from "./dictate.ts";
import { decodeCommand } from "./command_wire.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

// The original's v7/v8 baseline fixture, samples 0, 0.5, −1, 0.25, −0.25, 0.99997, −0.5, 0.125.
const FIXTURE = "00000000400080002000e0ff7f00c00010";
const SAMPLES = [0, 16384, -32768, 8192, -8192, 32767, -16384, 4096];

Deno.test("kind 0: the codec writes the baseline fixture byte for byte (spec: i16 LE mono 16 kHz)", () => {
  assertEquals(hex(encodeDictationFrame(Int16Array.from(SAMPLES))), FIXTURE);
});

Deno.test("kind 0: the fixture decodes to its samples through the client frame decoder", () => {
  const bytes = Uint8Array.from(FIXTURE.match(/../g)!.map((h) => parseInt(h, 16)));
  const frame = decodeClientBinary(bytes);
  if (!("samples" in frame)) throw new Error(`refused: ${JSON.stringify(frame)}`);
  assertEquals(Array.from(dictationSamples(frame.samples)), SAMPLES);
  // An unaligned view (offset 1 in the frame) still reads right: the codec copies.
  assertEquals(frame.samples.byteOffset, 1);
});

Deno.test("DictateOutcome: the original's six arms parse, and a made-up one does not", () => {
  for (
    const o of [
      { landed: { text: "run the tests", truncated: false } },
      "empty",
      { no_audio: { peak_db: null, seconds: 2 } },
      { refused: { message: "why" } },
      "failed",
      "cancelled",
    ]
  ) assertEquals(DictateOutcome.safeParse(o).success, true, JSON.stringify(o));
  assertEquals(DictateOutcome.safeParse({ landed: { text: "x" } }).success, false);
});

Deno.test("set_dictate_override takes one axis or reset; a wrong value is named", () => {
  assertEquals(
    decodeCommand({ set_dictate_override: { key: SLOT, update: "reset" } }).fields,
    { key: SLOT, update: "reset" },
  );
  let why = "";
  try {
    decodeCommand({ set_dictate_override: { key: SLOT, update: { styling: "loud" } } });
  } catch (err) {
    why = (err as Error).message;
  }
  assertEquals(why.startsWith("set_dictate_override: update"), true, why);
});

const SLOT = { org: "Acme", project: "proj", label: "lead" };
