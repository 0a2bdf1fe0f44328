// A snapshot encoded with its page spliced from a remembered encoding must be the
// very text JSON.stringify gives, byte count included, and must encode the page only once.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { WireObject } from "../protocol/mod.ts";
import { encodeSpliced, utf8Length } from "./encoded.ts";

const page = () => [
  { key: "k1", messages: [{ type: "user", text: 'héllo 🌍 \u2028 "quoted" \\ \u0001' }] },
  { key: null, messages: [{ type: "assistant", text: "plain" }] },
];

Deno.test("encodeSpliced: the same text and byte count as encoding the whole", () => {
  const turns = page();
  const data: WireObject = {
    header: { seq: 7, model: "ü" },
    conversation: { turns, cursor: "c1", compaction_count: 2 },
    tail: ["💡", null, 1.5],
  };
  for (let i = 0; i < 2; i++) {
    const encoded = encodeSpliced(data, "conversation", "turns");
    equal(encoded.text, JSON.stringify(data));
    equal(encoded.bytes, Buffer.byteLength(encoded.text, "utf8"));
    deepStrictEqual(JSON.parse(encoded.text), data);
  }
});

Deno.test("encodeSpliced: a page is encoded once while it is the same object", () => {
  let encodes = 0;
  const counted = { toJSON: () => (encodes++, "once") };
  const turns = [counted] as unknown as WireObject[];
  const around = (seq: number): WireObject => ({ seq, conversation: { turns, cursor: null } });
  equal(encodeSpliced(around(1), "conversation", "turns").text, JSON.stringify(around(1)));
  encodes = 0;
  const second = encodeSpliced(around(2), "conversation", "turns");
  equal(encodes, 0, "the remembered text is reused");
  equal(second.text, '{"seq":2,"conversation":{"turns":["once"],"cursor":null}}');
  // A new page (the window moved) is a new object: encoded afresh.
  const moved = [counted] as unknown as WireObject[];
  encodeSpliced({ conversation: { turns: moved } }, "conversation", "turns");
  equal(encodes, 1);
});

Deno.test("encodeSpliced: data without the part is encoded whole", () => {
  const cases: WireObject[] = [{ a: 1 }, { conversation: null }, { conversation: { turns: "x" } }];
  for (const data of cases) {
    const encoded = encodeSpliced(data, "conversation", "turns");
    equal(encoded.text, JSON.stringify(data));
  }
});

Deno.test("utf8Length: what the encoder writes, lone surrogates as U+FFFD", () => {
  for (const s of ["", "ascii", "é", "€", "🌍", "a\ud800b", "\udc00", "x".repeat(70_000) + "ü"]) {
    equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s.slice(0, 8)));
  }
});
