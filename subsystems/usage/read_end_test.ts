import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join } from "node:path";
import { recordsOf } from "./packed.ts";
import { SessionLines } from "./sample_lines.ts";
import { type PoolScan, PoolScanner } from "./scan.ts";

const AT = new Date("2026-12-02T08:00:00Z");

/** A transcript's lines: two sessions' worth (two cwds, some lines naming none), messages
 * written over several lines, an id that is not plain ASCII, and a torn line. */
function lines(): string[] {
  const text = [["/w/app", "s1"], ["/w/other", "s2"]].map(([cwd, id]) => {
    const s = new SessionLines(id, cwd);
    for (let m = 0; m < 4; m++) {
      s.prompt(`p${m}`, AT).message({
        id: m === 2 ? `msg_${id}_é${m}` : `msg_${id}_${m}`,
        requestId: `req_${id}_${m}`,
        model: m % 2 ? "claude-opus-5-5" : "claude-haiku-5-5",
        at: new Date(AT.getTime() + m * 60_000),
        input: 10 + m,
        output: m,
        cacheCreation: m * 3,
        cacheRead: m * 100,
        blocks: ["thinking", "text", "tool_use"],
      });
    }
    return s.text();
  }).join("");
  // Some lines name no cwd: their records take the one a line before them named.
  const all = text.split("\n").slice(0, -1).map((line, i) =>
    i % 3 === 2 ? line.replace('"cwd":"/w/other",', "") : line
  );
  all.splice(5, 0, '{"torn":');
  return all.map((l) => l + "\n");
}

const bytes = (text: string) => new TextEncoder().encode(text).length;

function counted(scan: PoolScan) {
  return { records: scan.files.flatMap((f) => recordsOf(f.packed)), skipped: scan.skipped_lines };
}

async function withFile(body: (path: string, root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "usage_end_" });
  const path = join(root, "projects", "-w-app", "s.jsonl");
  await Deno.mkdir(dirname(path), { recursive: true });
  try {
    await body(path, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("usage: a transcript the CLI appended to is read on from its last line, counted as whole", async () => {
  const all = lines();
  await withFile(async (path, root) => {
    // Every place the file can have ended at a scan, so a message's lines, the cwd change, the
    // torn line and the odd id each fall on both sides of the cut.
    for (let cut = 1; cut < all.length; cut++) {
      await Deno.writeTextFile(path, all.slice(0, cut).join(""));
      const scanner = new PoolScanner([root]);
      await scanner.scan();
      const appended = all.slice(cut).join("");
      await Deno.writeTextFile(path, appended, { append: true });
      const again = await scanner.scan();
      const whole = await new PoolScanner([root]).scan();
      assertEquals(counted(again), counted(whole), `cut after line ${cut}`);
      assertEquals([again.files_read, again.files_appended], [1, 1], `cut after line ${cut}`);
      assertEquals(again.bytes_read, bytes(appended));
    }
  });
});

Deno.test("usage: a transcript written anew, shortened, or cut mid-line is read whole again", async () => {
  const all = lines();
  await withFile(async (path, root) => {
    const scanner = new PoolScanner([root]);
    const rescan = async (text: string) => {
      await Deno.writeTextFile(path, text);
      const again = await scanner.scan();
      assertEquals(counted(again), counted(await new PoolScanner([root]).scan()));
      return again;
    };
    await rescan(all.slice(0, 8).join(""));
    // Longer, but not what was read before: the bytes the last read ended on are not there.
    const other = all.slice(9, 20).join("");
    let again = await rescan(other);
    assertEquals([again.files_appended, again.bytes_read], [0, bytes(other)]);
    // Shorter than where the last read ended.
    again = await rescan(all.slice(9, 12).join(""));
    assertEquals(again.files_appended, 0);
    // Ending mid-line: a torn last line counts as skipped, and the next read is whole.
    const torn = all.slice(0, 6).join("") + all[6].slice(0, 40);
    again = await rescan(torn);
    assertEquals(again.skipped_lines, 2);
    again = await rescan(all.slice(0, 10).join(""));
    assertEquals([again.files_appended, again.skipped_lines], [0, 1]);
  });
});
