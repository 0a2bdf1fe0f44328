import { assertEquals } from "../../../tests/assert.ts";
import { countCompactions, occurrences } from "./compactions.ts";
import { withTempDir } from "../../../tests/conversation_support.ts";

const BOUNDARY =
  '{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}';
const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("the boundary key is counted wherever it sits, and nothing like it is", () => {
  assertEquals(occurrences(enc(BOUNDARY)), 1);
  assertEquals(occurrences(enc('"subtype":"compact_boundary"')), 1);
  assertEquals(occurrences(enc(`${BOUNDARY}\n"x"${BOUNDARY}"subtype":"compact_boundar`)), 2);
  // Escaped inside a string (a message quoting it), or one byte off: not a boundary.
  assertEquals(occurrences(enc(JSON.stringify({ text: BOUNDARY }))), 0);
  assertEquals(occurrences(enc('"subtype":"compact_boundarx" "subtype" "compact_boundary"')), 0);
});

Deno.test("compactions before a row are counted across the read's chunk edges, up to that row", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/t.jsonl`;
    // Quotes everywhere, as JSON has them; the first boundary's key straddles the 1 MiB read.
    const row = (n: number) => JSON.stringify({ type: "user", text: '"a" '.repeat(n) }) + "\n";
    const at = BOUNDARY.indexOf('"subtype"');
    const head = '{"type":"user","text":"', tail = '"}\n';
    const first = head + "x".repeat((1 << 20) - 10 - at - head.length - tail.length) + tail;
    const rows = [first, `${BOUNDARY}\n`];
    for (let i = 0; i < 5; i++) rows.push(row(60_000), `${BOUNDARY}\n`);
    const text = rows.join("");
    assertEquals(text.indexOf(BOUNDARY) + at < 1 << 20, true);
    assertEquals(text.indexOf(BOUNDARY) + at + 28 > 1 << 20, true);
    await Deno.writeTextFile(path, text);
    assertEquals(await countCompactions(path), 6);
    const second = text.indexOf(BOUNDARY, text.indexOf(BOUNDARY) + 1);
    assertEquals(await countCompactions(path, second), 1);
    assertEquals(await countCompactions(`${dir}/none.jsonl`), 0);
  });
});
