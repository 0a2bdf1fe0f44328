import { assert, assertEquals } from "../../../tests/assert.ts";
import { writeGenerated } from "../../../fixtures/history/generate.ts";
import { cursorAtUuid, page } from "./pager.ts";
import type { Frame } from "./rows.ts";
import { referenceRows, walk, withTempDir } from "../../../tests/conversation_support.ts";
import { opensTurn, toolResultIds, toolUseIds } from "./turns.ts";

const isForged = (f: Frame) => f.uuid === undefined;
const SIZE = 12 << 20;

Deno.test("spec more: a 12 MB transcript of real lines walks from its newest page to its first row, every row once, in order", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/big.jsonl`;
    const { repetitions } = await writeGenerated(path, SIZE);
    const ref = await referenceRows(path);
    const rows = ref.map((r) => r.frame);
    const prompts = rows.filter(opensTurn).length;
    // The sources hold 1, 1, 3, 2, 3, 1 and 5 turns (fixtures/history/generate.ts SOURCES order).
    const per = [1, 1, 3, 2, 3, 1, 5];
    assertEquals(
      prompts,
      Array.from({ length: repetitions }, (_, i) => per[i % 7]).reduce((a, b) => a + b),
    );

    const { pages, frames } = await walk(path, 20);
    assertEquals(frames.filter((f) => !isForged(f)), rows);
    assertEquals(pages.reduce((n, p) => n + p.turns.length, 0), prompts);
    // One background_ending repetition in 7 holds one ending a turn later: each is carried once.
    const endings = Math.floor(repetitions / 7) + (repetitions % 7 > 4 ? 1 : 0);
    assertEquals(frames.filter(isForged).length, endings);
    for (const p of pages) {
      assert(p.turns.length <= 20);
      const calls = new Set(p.turns.flatMap((t) => t.messages.flatMap(toolUseIds)));
      for (const m of p.turns.flatMap((t) => t.messages)) {
        for (const id of toolResultIds(m)) assert(calls.has(id), "a result without its call");
      }
    }

    // From the middle, with another page size, the walk converges on the same chain.
    const middle = ref[Math.floor(ref.length / 2)];
    const cursor = await cursorAtUuid(path, String(middle.frame.uuid));
    assert(cursor);
    const half = await walk(path, 7, {}, cursor);
    assertEquals(half.frames.filter((f) => !isForged(f)), rows.slice(0, ref.indexOf(middle)));

    // And with a small byte bound, whole turns give way to stretches, still every row once.
    const tight = await walk(path, 20, { pageBytes: 4096 });
    assertEquals(tight.frames.filter((f) => !isForged(f)), rows);
  });
});

Deno.test("spec more: turns is clamped to 1..=20", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/big.jsonl`;
    await writeGenerated(path, 2 << 20);
    assertEquals((await page(path, null, 100)).turns.length, 20);
    assertEquals((await page(path, null, 0)).turns.length, 1);
    assertEquals((await page(path, null, -3)).turns.length, 1);
    assertEquals((await page(path, null, 2.7)).turns.length, 2);
  });
});
