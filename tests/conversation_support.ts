/**
 * Test support: the real transcripts by name, and the reference reading a page walk is checked
 * against - the whole file parsed front to back, every carried row with its offset.
 */
import { assert } from "./assert.ts";
import { parseRowCursor } from "../server/workspace/conversation/cursor.ts";
import { type Page, page, type PageOptions } from "../server/workspace/conversation/pager.ts";
import { type Frame, lineFrame } from "../server/workspace/conversation/rows.ts";

const ROOT = new URL("../", import.meta.url);

/**
 * The real CLI transcripts: the three in `fixtures/transcripts/` and the four in
 * `server/workspace/conversation/testdata/`.
 */
export const REAL = {
  plain_text: "fixtures/transcripts/plain_text.jsonl",
  tool_bash: "fixtures/transcripts/tool_bash.jsonl",
  multi_turn: "fixtures/transcripts/multi_turn.jsonl",
  queued_prompt: "server/workspace/conversation/testdata/queued_prompt.jsonl",
  background_ending: "server/workspace/conversation/testdata/background_ending.jsonl",
  ending_mid_turn: "server/workspace/conversation/testdata/ending_mid_turn.jsonl",
  compact_interrupt: "server/workspace/conversation/testdata/compact_interrupt.jsonl",
} as const;

/** A real transcript's path on this machine. */
export function realPath(name: keyof typeof REAL): string {
  return new URL(REAL[name], ROOT).pathname;
}

/** The prompt uuids the captures sent (`7a1e0000-0000-4000-8000-0000000000xx`). */
export const promptUuid = (tail: string) => `7a1e0000-0000-4000-8000-${tail.padStart(12, "0")}`;

/** Every carried row of a file, oldest first, read front to back in one piece. */
export async function referenceRows(
  path: string,
): Promise<Array<{ offset: number; frame: Frame }>> {
  const bytes = await Deno.readFile(path);
  const dec = new TextDecoder();
  const out: Array<{ offset: number; frame: Frame }> = [];
  for (let start = 0; start < bytes.length;) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const frame = end > start ? lineFrame(dec.decode(bytes.subarray(start, end))) : null;
    if (frame) out.push({ offset: start, frame });
    start = end + 1;
  }
  return out;
}

/** A temp dir for the test body, removed after. */
export async function withTempDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "forge-conversation-test-" });
  try {
    return await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Walks `more` from `from` until the cursor is null; answers the pages in walk order and the
 * carried frames oldest first. */
export async function walk(
  path: string,
  turns: number,
  o: PageOptions = {},
  from: string | null = null,
): Promise<{ pages: Page[]; frames: Frame[] }> {
  const pages: Page[] = [];
  let before = from;
  do {
    const p = await page(path, before, turns, o);
    if (before !== null && p.cursor !== null) {
      assert(parseRowCursor(p.cursor)! < parseRowCursor(before)!, "the walk moves up");
    }
    pages.push(p);
    before = p.cursor;
    assert(pages.length < 1_000_000);
  } while (before !== null);
  const frames = [...pages].reverse().flatMap((p) => p.turns.flatMap((t) => t.messages));
  return { pages, frames };
}
