import { assert, assertEquals } from "../../../tests/assert.ts";
import {
  GENERATED_SESSION,
  loadTemplates,
  repetition,
  SOURCES,
  writeGenerated,
} from "./generate.ts";
import { withTempDir } from "./testing.ts";

Deno.test("generated transcripts: each repetition is a real session with every id fresh and one session id", async () => {
  const templates = await loadTemplates();
  assertEquals(templates.length, SOURCES.length);
  const seen = new Set<string>();
  for (const [i, t] of templates.entries()) {
    for (const rep of [i, i + templates.length]) {
      const text = repetition(t, rep);
      const rows = text.trim().split("\n").map((l) => JSON.parse(l));
      const original = t.parts.join("").length > 0;
      assert(original);
      for (const row of rows) {
        if (row.sessionId !== undefined) assertEquals(row.sessionId, GENERATED_SESSION);
        if (typeof row.uuid === "string") {
          assert(!seen.has(row.uuid), `uuid ${row.uuid} repeats`);
          seen.add(row.uuid);
        }
      }
      // Same shape as the source: the same row types in the same order.
      const source = await Deno.readTextFile(new URL(`../../../${t.name}`, import.meta.url));
      const types = (s: string) => s.trim().split("\n").map((l) => JSON.parse(l).type);
      assertEquals(types(text), types(source));
      assert(!/toolu_fake|msg_fake/.test(text), "call and message ids are fresh");
    }
  }
});

Deno.test("generated transcripts: a file of at least the asked size, whole lines", async () => {
  await withTempDir(async (dir) => {
    const { bytes, repetitions } = await writeGenerated(`${dir}/g.jsonl`, 1 << 20);
    assert(bytes >= 1 << 20 && bytes < (1 << 20) + (256 << 10), `${bytes}`);
    assert(repetitions >= SOURCES.length);
    const text = await Deno.readTextFile(`${dir}/g.jsonl`);
    assert(text.endsWith("\n"));
    for (const line of text.trim().split("\n")) JSON.parse(line);
  });
});
