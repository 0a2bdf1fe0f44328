// spec: more, page, seat_range, seat_frames; session > conversation; "The cursor is a position,
// not an index"; "A page that cannot be answered is REFUSED". A conversation over a transcript of
// real CLI lines (fixtures/history/generate.ts): the rows after a cut arrive as live frames, as the CLI streams
// them, and the rows before it are the history a resumed session is seeded from.
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { CliFrame } from "../../../protocol/mod.ts";
import { memoryLogger } from "../../log.ts";
import { Refusal } from "../../subsystem.ts";
import { GENERATED_SESSION, writeGenerated } from "../../../fixtures/history/generate.ts";
import { lineFrame } from "../conversation/rows.ts";
import { referenceRows, withTempDir } from "../../../tests/conversation_support.ts";
import { opensTurn } from "../conversation/turns.ts";
import { SeatConversation } from "./conversation.ts";
import type { PageBody } from "./transcript_pages.ts";

const slot = { org: "Acme", project: "proj", label: "lead" };
const enc = new TextEncoder();

interface World {
  conv: SeatConversation;
  path: string;
  /** Every carried row's uuid, oldest first: what a walk must hand over, each once. */
  uuids: string[];
  /** The numbers the live frames were pushed under. */
  seqs: number[];
  /** `compact_boundary` rows in the whole transcript. */
  compactions: number;
}

/** A transcript of real lines; rows from `cut` on stream as live frames (a `result` before each
 * prompt, as the CLI ends a turn), the rest is history (seeded when `cut` > 0). */
async function world(
  dir: string,
  o: { bytes: number; cut: number; ceiling?: number; pageKb?: number; recordKb?: number },
): Promise<World> {
  const src = `${dir}/source.jsonl`;
  await writeGenerated(src, o.bytes);
  const ref = await referenceRows(src);
  const text = await Deno.readFile(src);
  const cutRow = Math.floor(ref.length * o.cut);
  const cutAt = cutRow === 0 ? 0 : ref[cutRow].offset;
  const path = `${dir}/${GENERATED_SESSION}.jsonl`;
  await Deno.writeFile(path, text.subarray(0, cutAt));
  const conv = new SeatConversation({
    slot,
    session: GENERATED_SESSION,
    transcript: path,
    seed: cutAt > 0,
    caps: () => ({ pageBytes: (o.pageKb ?? 64) << 10, recordBytes: (o.recordKb ?? 64) << 10 }),
    transcriptOf: () => null,
    log: memoryLogger(),
    ceiling: o.ceiling,
  });
  await conv.ready();
  // The CLI writes its rows and streams the same frames.
  await Deno.writeFile(path, text.subarray(cutAt), { append: true });
  const dec = new TextDecoder();
  let seq = 100;
  const seqs: number[] = [];
  const push = (msg: CliFrame) => {
    seqs.push(seq);
    conv.window.push(seq++, { name: "chat_appended", fields: { key: slot, msg } });
  };
  let live = false;
  for (const line of dec.decode(text.subarray(cutAt)).split("\n")) {
    const frame = lineFrame(line);
    if (!frame) continue;
    if (opensTurn(frame) && live) push({ type: "result", uuid: `res-${seq}` });
    push(frame);
    live = true;
  }
  const uuids = ref.map((r) => r.frame.uuid).filter((u): u is string => typeof u === "string");
  const compactions =
    ref.filter((r) => r.frame.type === "system" && r.frame.subtype === "compact_boundary").length;
  return { conv, path, uuids, seqs, compactions };
}

/** Walks from the snapshot to cursor null; answers the pages and the carried rows' uuids, oldest
 * first (the window's own results and the forged endings left out). */
async function walk(conv: SeatConversation, turns: number, from?: string | null) {
  const pages: PageBody[] = [];
  let body = from === undefined
    ? await conv.snapshot() as unknown as PageBody
    : await conv.more(from, turns);
  pages.push(body);
  while (body.cursor !== null) {
    body = await conv.more(body.cursor, turns);
    assert(body.turns.length > 0, "only the last page is empty");
    pages.push(body);
    assert(pages.length < 100_000);
  }
  const uuids = [...pages].reverse().flatMap((p) => p.turns.flatMap((t) => t.messages))
    .map((m) => (m as CliFrame).uuid)
    .filter((u): u is string => typeof u === "string" && !u.startsWith("res-"));
  return { pages, uuids };
}

Deno.test("a fresh session's walk is the window's alone: every row once, in order, and null above the first", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir, { bytes: 2 << 20, cut: 0 });
    const { pages, uuids } = await walk(w.conv, 5);
    assertEquals(uuids, w.uuids);
    assert(pages.every((p) => p.cursor === null || p.cursor.startsWith("w:")), "window cursors");
    // The snapshot's twenty, then fives, of the 85 turns 2 MB of these sessions hold.
    assert(pages.length >= 14, `${pages.length} pages`);
  });
});

Deno.test("a resumed session: seeded turns and live ones from memory, the history above read from disk", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir, { bytes: 1 << 20, cut: 0.6, pageKb: 2048 });
    const snap = await w.conv.snapshot() as unknown as PageBody & { compaction_count: number };
    assertEquals(snap.turns.length, 20, "the snapshot is the newest twenty turns");
    const { pages, uuids } = await walk(w.conv, 3);
    assertEquals(uuids, w.uuids);
    const sides = pages.map((p) => p.cursor?.slice(0, 2) ?? null);
    assert(sides.includes("w:") && sides.includes("t:"), `both sides: ${sides.join(" ")}`);
    // Counted wherever they sit: above the seed (on disk), seeded, or live.
    assert(w.compactions > 0);
    assertEquals(snap.compaction_count, w.compactions);
  });
});

Deno.test("past the window's ceiling the walk crosses the floor by the rows of its oldest frames", async () => {
  await withTempDir(async (dir) => {
    for (const cut of [0, 0.3]) {
      const w = await world(dir, { bytes: 1 << 20, cut, ceiling: 96 << 10, pageKb: 16 });
      assert(w.conv.window.trimmed, "the ceiling dropped the front");
      const { pages, uuids } = await walk(w.conv, 20);
      assertEquals(uuids, w.uuids, `cut ${cut}`);
      assert(pages.some((p) => p.cursor?.startsWith("t:")), "the walk went below the floor");
    }
  });
});

Deno.test("a cursor outlives its window: after a restart the walk continues on disk above its turn", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir, { bytes: 600 << 10, cut: 0.5 });
    const first = await w.conv.more(null, 3);
    const second = await w.conv.more(first.cursor, 3);
    assert(second.cursor!.startsWith("w:"));
    // A new server run: the same session resumed into a fresh window.
    const again = new SeatConversation({
      slot,
      session: GENERATED_SESSION,
      transcript: w.path,
      seed: true,
      caps: () => ({ pageBytes: 64 << 10, recordBytes: 64 << 10 }),
      transcriptOf: () => null,
      log: memoryLogger(),
    });
    const before = await walk(w.conv, 3, second.cursor);
    const after = await walk(again, 3, second.cursor);
    assertEquals(after.uuids, before.uuids, "the same rows above, read from disk");
    // A cursor of another session pages that session's transcript when the seat knows it.
    const other = new SeatConversation({
      slot,
      session: "00000000-0000-4000-8000-000000000001",
      transcript: null,
      seed: false,
      caps: () => ({ pageBytes: 64 << 10, recordBytes: 64 << 10 }),
      transcriptOf: (s) => (s === GENERATED_SESSION ? w.path : null),
      log: memoryLogger(),
    });
    assertEquals((await walk(other, 3, second.cursor)).uuids, before.uuids);
    // A transcript that cannot be read is not an empty history: the page fails (the socket
    // answers an error naming more), where a missing file answers the empty page.
    const unreadable = new SeatConversation({
      slot,
      session: GENERATED_SESSION,
      transcript: dir, // a directory: opened, then every read fails
      seed: false,
      caps: () => ({ pageBytes: 64 << 10, recordBytes: 64 << 10 }),
      transcriptOf: () => null,
      log: memoryLogger(),
    });
    const failed = await unreadable.more(`t:1@${GENERATED_SESSION}`, 3).catch((e) => e);
    assert(failed instanceof Error, "an unreadable transcript fails the page");
    const missing = new SeatConversation({
      slot,
      session: GENERATED_SESSION,
      transcript: `${dir}/none.jsonl`,
      seed: true,
      caps: () => ({ pageBytes: 64 << 10, recordBytes: 64 << 10 }),
      transcriptOf: () => null,
      log: memoryLogger(),
    });
    assertEquals(await missing.more(null, 3), { turns: [], cursor: null });
    const refused = await w.conv.more("w:nonsense", 3).catch((e) => e);
    assert(refused instanceof Refusal && refused.what === "more", "an unknown cursor is refused");
    assertMatch(refused.message, /is not a cursor this server hands out/);
  });
});

Deno.test("seat_range: the window's numbers as they were, below them the transcript's rows numbered to end at the range's end", async () => {
  await withTempDir(async (dir) => {
    const w = await world(dir, { bytes: 2 << 20, cut: 0.5, ceiling: 64 << 10 });
    const first = w.conv.window.firstSeq()!;
    assert(first > w.seqs[0], "the front dropped");
    const held = await w.conv.range(first + 2, first + 4);
    assertEquals(held.map((f) => f.seq), [first + 2, first + 3, first + 4]);
    const entry = w.conv.window.bySeq(first + 3, first + 3)[0];
    assertEquals(held[1].update, { chat_appended: entry.update.fields } as unknown);
    // Below the window: rows just above where the held numbers begin, ending at `first - 1`.
    const below = await w.conv.range(first - 3, first + 1);
    assertEquals(below.map((f) => f.seq), [first - 3, first - 2, first - 1, first, first + 1]);
    const rows = below.slice(0, 3).map((f) =>
      (f.update as { chat_appended: { msg: CliFrame } }).chat_appended.msg.uuid
    );
    const firstHeld = w.conv.window.front().anchors[0];
    const at = w.uuids.indexOf(firstHeld);
    assertEquals(rows, w.uuids.slice(at - 3, at), "the three rows just above the window");
    assert(enc.encode(JSON.stringify(below)).length < 1 << 20);
    // A range wholly below the window: the same newest rows, numbered to end at its end.
    const older = await w.conv.range(first - 12, first - 10);
    assertEquals(older.map((f) => f.seq), [first - 12, first - 11, first - 10]);
    assertEquals(
      older.map((f) => (f.update as { chat_appended: { msg: CliFrame } }).chat_appended.msg.uuid),
      rows,
    );
  });
});
