// The text frame forge writes itself must read, to `ws`'s own parser, as the text.
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as ws from "ws";
import { binaryHead, textFrame } from "./ws_frame.ts";

/** `ws`'s frame parser (exported by the package, absent from its type declarations). */
interface FrameParser {
  on(event: "message", fn: (data: Buffer, binary: boolean) => void): void;
  on(event: "error", fn: (e: Error) => void): void;
  write(chunk: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (o: { isServer: boolean }) => FrameParser };

/** What `ws`'s own client-side parser reads from `bytes`: each message and whether binary. */
function parsed(bytes: Uint8Array): { text: string; binary: boolean }[] {
  const out: { text: string; binary: boolean }[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on("message", (data: Buffer, binary: boolean) => {
    out.push({ text: binary ? data.toString("hex") : data.toString(), binary });
  });
  receiver.on("error", (e: Error) => {
    throw e;
  });
  receiver.write(Buffer.from(bytes));
  return out;
}

Deno.test("a text frame parses as the same text at every length class and in UTF-8", () => {
  for (const text of ["", "a", "x".repeat(125), "y".repeat(126), "z".repeat(65535), "é€😀"]) {
    const frame = textFrame(text);
    const head = frame.length - Buffer.byteLength(text);
    assertEquals(
      head,
      Buffer.byteLength(text) < 126 ? 2 : Buffer.byteLength(text) < 65536 ? 4 : 10,
    );
    assertEquals(frame[0], 0x81, "FIN and opcode 1, text");
    assertEquals(frame[1] & 0x80, 0, "a server's frame is not masked");
    assertEquals(parsed(frame), [{ text, binary: false }]);
  }
  const long = "w".repeat(70_000);
  assertEquals(textFrame(long).length, 10 + 70_000);
  assertEquals(parsed(textFrame(long)), [{ text: long, binary: false }]);
});

Deno.test("the frame is built once while the string is the same, and anew for another", () => {
  const text = JSON.stringify({ kind: "update", n: 1 });
  const first = textFrame(text);
  assert(textFrame(text) === first, "the same string answers the same bytes");
  const other = textFrame(JSON.stringify({ kind: "update", n: 2 }));
  assert(other !== first);
  assertEquals(parsed(other)[0].text, '{"kind":"update","n":2}');
  // An equal string made separately is the same text: its frame's bytes are equal.
  assertEquals([...textFrame(String(["a", "b"]))], [...textFrame(["a", "b"].join(","))]);
});

Deno.test("a binary header and its payload parse as the same bytes at every length class", () => {
  for (const n of [0, 1, 125, 126, 65535, 65536, 70_000]) {
    const payload = new Uint8Array(n).map((_, i) => (i * 7) & 0xff);
    const head = binaryHead(payload);
    assertEquals(head.length, n < 126 ? 2 : n < 65536 ? 4 : 10);
    assertEquals(head[0], 0x82, "FIN and opcode 2, binary");
    assertEquals(head[1] & 0x80, 0, "a server's frame is not masked");
    const wire = Buffer.concat([head, payload]);
    assertEquals(parsed(wire), [{ text: Buffer.from(payload).toString("hex"), binary: true }]);
  }
});

Deno.test("a binary header is built once for the same payload, and anew for another", () => {
  const payload = new Uint8Array(300);
  const head = binaryHead(payload);
  assert(binaryHead(payload) === head, "the same bytes object answers the same header");
  const other = binaryHead(new Uint8Array(300));
  assert(other !== head, "another payload gets a header of its own");
  assertEquals([...other], [...head]);
});
