import { assertEquals } from "../../../tests/assert.ts";
import { rowCursor } from "./cursor.ts";
import { rangeFromTranscript, rowsSince } from "./range.ts";
import { realPath, referenceRows, withTempDir } from "../../../tests/conversation_support.ts";

Deno.test("spec seat_frames: below the window, the transcript's own newest rows answer, numbered to end at the range's end", async () => {
  const path = realPath("background_ending");
  const ref = (await referenceRows(path)).map((r) => r.frame);
  const got = await rangeFromTranscript(path, 40, 44);
  assertEquals(got.map((r) => r.seq), [40, 41, 42, 43, 44]);
  assertEquals(got.map((r) => r.msg), ref.slice(-5));
});

Deno.test("spec seat_frames: from the window's floor row, the rows just above it answer", async () => {
  const path = realPath("background_ending");
  const ref = await referenceRows(path);
  const floor = ref[8];
  const got = await rangeFromTranscript(path, 100, 102, { before: rowCursor(floor.offset) });
  assertEquals(got.map((r) => r.seq), [100, 101, 102]);
  assertEquals(got.map((r) => r.msg), ref.slice(5, 8).map((r) => r.frame));
});

Deno.test("spec seat_frames: a range longer than the transcript holds starts above `from`; the bounds keep the newest", async () => {
  const path = realPath("multi_turn");
  const ref = (await referenceRows(path)).map((r) => r.frame);
  const all = await rangeFromTranscript(path, 0, 999);
  assertEquals(all.map((r) => r.seq), ref.map((_, i) => 999 - (ref.length - 1) + i));
  assertEquals(all.map((r) => r.msg), ref);
  const capped = await rangeFromTranscript(path, 0, 999, { maxRows: 2 });
  assertEquals(capped.map((r) => [r.seq, r.msg]), [[998, ref.at(-2)], [999, ref.at(-1)]]);
  const small = await rangeFromTranscript(path, 0, 999, { maxBytes: 1 });
  assertEquals(small.map((r) => [r.seq, r.msg]), [[999, ref.at(-1)]], "the newest row always");
});

Deno.test("spec seat_frames: nothing to answer from is no rows", async () => {
  const path = realPath("multi_turn");
  assertEquals(await rangeFromTranscript(path, 5, 4), []);
  assertEquals(await rangeFromTranscript(path, 0, 3, { before: "t:7" }), []);
  assertEquals(await rangeFromTranscript(path, 0, 3, { before: "17" }), []);
  await withTempDir(async (dir) => {
    assertEquals(await rangeFromTranscript(`${dir}/none.jsonl`, 0, 3), []);
  });
});

Deno.test("the rows written since an offset: oldest first, with their offsets; none past the end", async () => {
  const path = realPath("multi_turn");
  const ref = await referenceRows(path);
  const since = await rowsSince(path, ref[3].offset);
  assertEquals(since.map((r) => r.offset), ref.slice(3).map((r) => r.offset));
  assertEquals(since.map((r) => r.msg), ref.slice(3).map((r) => r.frame));
  assertEquals(await rowsSince(path, (await Deno.stat(path)).size), []);
  await withTempDir(async (dir) => assertEquals(await rowsSince(`${dir}/none.jsonl`, 0), []));
});
