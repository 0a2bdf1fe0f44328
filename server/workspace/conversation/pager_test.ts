import { assert, assertEquals } from "../../../tests/assert.ts";
import { rowCursor } from "./cursor.ts";
import { cursorAtUuid, type Page, page } from "./pager.ts";
import type { Frame } from "./rows.ts";
import {
  promptUuid,
  REAL,
  realPath,
  referenceRows,
  walk,
  withTempDir,
} from "../../../tests/conversation_support.ts";
import { opensTurn, toolResultIds, toolUseIds } from "./turns.ts";

const NAMES = Object.keys(REAL) as Array<keyof typeof REAL>;
const isForged = (f: Frame) => f.uuid === undefined;

/** Every page's turns open on a prompt except the file's own first rows (no prompt above
 * them) and stretches; every tool result has its call in the same page. */
function checkPages(pages: Page[], allowStretch: boolean): void {
  for (const [i, p] of pages.entries()) {
    const last = i === pages.length - 1;
    for (const [t, turn] of p.turns.entries()) {
      assertEquals(turn.key, null);
      assert(turn.messages.length > 0);
      if (!allowStretch && !(last && t === 0)) {
        const first = turn.messages.find((m) => opensTurn(m) || m.subtype === "compact_boundary");
        assert(first, `page ${i} turn ${t} has its prompt`);
      }
    }
    const calls = new Set(p.turns.flatMap((t) => t.messages.flatMap(toolUseIds)));
    for (const m of p.turns.flatMap((t) => t.messages)) {
      for (const id of toolResultIds(m)) {
        assert(calls.has(id), `page ${i}: result ${id} without its call`);
      }
    }
  }
}

Deno.test("spec more: walking every real transcript from the newest page to the first row carries every row once, in order", async () => {
  for (const name of NAMES) {
    const path = realPath(name);
    const ref = (await referenceRows(path)).map((r) => r.frame);
    for (const turns of [1, 2, 20]) {
      const { pages, frames } = await walk(path, turns);
      assertEquals(frames.filter((f) => !isForged(f)), ref, `${name} by ${turns}`);
      assertEquals(pages.at(-1)!.cursor, null);
      checkPages(pages, false);
      for (const p of pages) assert(p.turns.length <= turns);
    }
  }
});

Deno.test("spec more: a page is whole turns, oldest first, its cursor naming the row its oldest turn opens on", async () => {
  const path = realPath("multi_turn");
  const ref = await referenceRows(path);
  const p = await page(path, null, 2);
  assertEquals(p.turns.map((t) => t.messages[0].uuid), [promptUuid("c2"), promptUuid("c3")]);
  assertEquals(p.turns.map((t) => t.messages.length), [3, 2]);
  assertEquals(p.cursor, rowCursor(ref.find((r) => r.frame.uuid === promptUuid("c2"))!.offset));
  assert(!("cron_names" in p), "cron_names is absent when no row is a fired prompt");
  const rest = await page(path, p.cursor, 20);
  assertEquals(rest.turns.map((t) => t.messages[0].uuid), [promptUuid("c1")]);
  assertEquals(rest.cursor, null);
  assertEquals((await page(path, null, 20)).turns.length, 3);
});

Deno.test("spec more: a prompt queued mid-turn stays inside the turn it was taken in, and /compact's turn opens on its boundary", async () => {
  const queued = await page(realPath("queued_prompt"), null, 20);
  assertEquals(queued.turns.length, 2);
  const first = queued.turns[0].messages;
  assertEquals(first[0].uuid, promptUuid("d1"));
  assert(first.some((m) => m.uuid === promptUuid("d2")), "the queued prompt, under its own id");
  const compact = await page(realPath("compact_interrupt"), null, 20);
  assertEquals(compact.turns.length, 5);
  const turn = compact.turns[1].messages;
  assertEquals(turn[0].subtype, "compact_boundary");
  assertEquals(turn.find(opensTurn)?.uuid, promptUuid("f2"));
});

Deno.test("spec A turn can carry a frame the CLI did not send: an ending that landed a turn later rides the call's turn, forged, in every walk", async () => {
  const path = realPath("background_ending");
  for (const turns of [1, 2, 20]) {
    const { pages } = await walk(path, turns);
    const all = [...pages].reverse().flatMap((p) => p.turns);
    assertEquals(all.map((t) => t.messages[0].uuid), ["e1", "e2", "e3"].map(promptUuid));
    const [e1, e2] = all;
    const call = e1.messages.flatMap(toolUseIds)[0];
    const forged = e1.messages.filter(isForged);
    assertEquals(forged.length, 1, `by ${turns}`);
    assertEquals(forged[0].subtype, "task_notification");
    assertEquals(forged[0].tool_use_id, call);
    assertEquals(e1.messages.at(-1), forged[0], "after the turn's own rows");
    // The ending's own row stays where the CLI wrote it.
    assert(e2.messages.some((m) => !isForged(m) && JSON.stringify(m).includes(call)));
    assertEquals(all.flatMap((t) => t.messages).filter(isForged).length, 1);
  }
  // An ending inside its own call's turn is not carried twice.
  const mid = await walk(realPath("ending_mid_turn"), 20);
  assertEquals(mid.frames.filter(isForged), []);
});

Deno.test("spec more (cron_names): a page names the schedule of each fired prompt it holds, by the prompt's id", async () => {
  const path = realPath("multi_turn");
  const cronName = (uuid: string) => uuid === promptUuid("c2") ? "nightly" : undefined;
  const p = await page(path, null, 20, { cronName });
  assertEquals(p.cron_names, { [promptUuid("c2")]: "nightly" });
  const newest = await page(path, null, 1, { cronName });
  assert(!("cron_names" in newest), "absent from a page without a fired prompt");
});

Deno.test("spec more: where the transcript cannot answer, the answer is the empty page", async () => {
  const path = realPath("tool_bash");
  const ref = await referenceRows(path);
  const empty = { turns: [], cursor: null };
  await withTempDir(async (dir) => {
    assertEquals(await page(`${dir}/none.jsonl`, null, 20), empty, "no file");
    assertEquals(await page(`${dir}/none.jsonl`, "t:0", 20), empty, "no file");
  });
  assertEquals(await page(path, "120", 20), empty, "a window cursor is not a row");
  assertEquals(await page(path, "t:abc", 20), empty, "not a cursor");
  assertEquals(await page(path, rowCursor(ref[3].offset + 5), 20), empty, "mid-row");
  assertEquals(await page(path, rowCursor(10_000_000), 20), empty, "a row the file lacks");
  assertEquals(await page(path, rowCursor(ref[0].offset), 20), empty, "nothing above the first");
  // Past the read cap: the cap reaches the last rows only.
  const size = (await Deno.stat(path)).size;
  const capBytes = size - ref.at(-1)!.offset;
  assertEquals(await page(path, rowCursor(ref[2].offset), 20, { capBytes }), empty, "past cap");
  const capped = await page(path, null, 20, { capBytes });
  assertEquals(capped.turns.flatMap((t) => t.messages), [ref.at(-1)!.frame]);
  assertEquals(capped.cursor, null, "what the cap ends is the history");
});

Deno.test("spec more: a page bounded by bytes carries a stretch of a long turn, never opening on a result without its call", async () => {
  for (const name of ["tool_bash", "ending_mid_turn", "queued_prompt"] as const) {
    const path = realPath(name);
    const ref = (await referenceRows(path)).map((r) => r.frame);
    for (const pageBytes of [1, 1500, 3000]) {
      const { pages, frames } = await walk(path, 20, { pageBytes });
      assertEquals(frames.filter((f) => !isForged(f)), ref, `${name} at ${pageBytes}`);
      checkPages(pages, true);
      assert(pages.length > 1, "the bound cut the turn");
    }
  }
});

Deno.test("spec more: a cursor inside a turn pages that turn's older rows first; any cursor converges on the same chain", async () => {
  const path = realPath("background_ending");
  const ref = await referenceRows(path);
  const full = (await walk(path, 20)).frames.filter((f) => !isForged(f));
  for (const [i, row] of ref.entries()) {
    const cursor = await cursorAtUuid(path, String(row.frame.uuid));
    assertEquals(cursor, rowCursor(row.offset));
    const { frames } = await walk(path, 2, {}, cursor);
    assertEquals(frames.filter((f) => !isForged(f)), full.slice(0, i), `from row ${i}`);
  }
  const e2 = ref.findIndex((r) => r.frame.uuid === promptUuid("e2"));
  const inside = await page(path, rowCursor(ref[e2 + 1].offset), 1);
  assertEquals(inside.turns[0].messages.map((m) => m.uuid), [promptUuid("e2")]);
  assertEquals(await cursorAtUuid(path, "no-such-uuid"), null);
});

Deno.test("spec more: a row the CLI is still writing is not read; the rows above it are", async () => {
  const path = realPath("multi_turn");
  const text = await Deno.readTextFile(path);
  await withTempDir(async (dir) => {
    const torn = `${dir}/t.jsonl`;
    await Deno.writeTextFile(torn, text + '{"parentUuid":"x","type":"assistant","message":{"con');
    assertEquals(await page(torn, null, 20), await page(path, null, 20));
  });
});
