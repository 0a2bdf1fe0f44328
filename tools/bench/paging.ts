/**
 * History paging below the window (issue 4): how long a `more` page read from a large transcript
 * takes at the newest turns, in the middle and at the very start, and what the process holds
 * while a walk covers the whole history - against reading the whole file once.
 *
 *   tools/deno.sh run -A tools/bench/paging.ts [--size-mb 500] [--reads 200] [--turns 20]
 *
 * The transcript is generated from real CLI-written lines (`server/workspace/conversation/
 * generate.ts`: the committed real sessions repeated with fresh ids) in a temp dir, removed
 * after. It was just written, so it sits in the page cache: the figures are CPU and syscalls,
 * not the disk.
 */
import { parseArgs } from "node:util";
import { writeGenerated } from "../../server/workspace/conversation/generate.ts";
import { page } from "../../server/workspace/conversation/pager.ts";
import { lineFrame } from "../../server/workspace/conversation/rows.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    "size-mb": { type: "string", default: "500" },
    reads: { type: "string", default: "200" },
    turns: { type: "string", default: "20" },
  },
});
const sizeMb = Number(values["size-mb"]);
const reads = Number(values.reads);
const turns = Number(values.turns);
const MB = 1 << 20;
const rss = () => Deno.memoryUsage().rss;
const ms = (x: number) => `${x.toFixed(2)} ms`;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Reads the whole file once in 1 MiB reads; with `parse`, maps every row as a page would. */
async function wholeFile(
  path: string,
  parse: boolean,
): Promise<{ ms: number; rows: number; bytes: number }> {
  const t0 = performance.now();
  using file = await Deno.open(path);
  const buf = new Uint8Array(MB);
  const dec = new TextDecoder();
  let carry = "";
  let rows = 0;
  let bytes = 0;
  for (let n = await file.read(buf); n !== null; n = await file.read(buf)) {
    bytes += n;
    if (!parse) continue;
    const lines = (carry + dec.decode(buf.subarray(0, n), { stream: true })).split("\n");
    carry = lines.pop()!;
    for (const l of lines) if (lineFrame(l)) rows++;
  }
  return { ms: performance.now() - t0, rows, bytes };
}

const dir = await Deno.makeTempDir({ prefix: "forge-bench-paging-" });
try {
  const path = `${dir}/transcript.jsonl`;
  const t0 = performance.now();
  const { bytes, repetitions } = await writeGenerated(path, sizeMb * MB);
  console.log(
    `transcript: ${(bytes / MB).toFixed(1)} MiB, ${repetitions} real sessions repeated, ` +
      `written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // The walk: newest page to the first row, RSS sampled after every page.
  const rssBefore = rss();
  let rssMax = rssBefore;
  const cursors: Array<string | null> = [null];
  let pages = 0;
  let turnsSeen = 0;
  let frames = 0;
  const w0 = performance.now();
  for (let before: string | null = null;;) {
    const p = await page(path, before, turns);
    pages++;
    turnsSeen += p.turns.length;
    frames += p.turns.reduce((n, t) => n + t.messages.length, 0);
    rssMax = Math.max(rssMax, rss());
    if (p.cursor === null) break;
    cursors.push(p.cursor);
    before = p.cursor;
  }
  const walkMs = performance.now() - w0;
  console.log(
    `walk: ${pages} pages, ${turnsSeen} turns, ${frames} frames in ${
      (walkMs / 1000).toFixed(2)
    } s` +
      ` (${ms(walkMs / pages)} a page); RSS ${(rssBefore / MB).toFixed(0)} MiB before, ` +
      `max ${(rssMax / MB).toFixed(0)} MiB during (+${((rssMax - rssBefore) / MB).toFixed(0)})`,
  );

  // Page latency at three places, interleaved so drift hits all three alike.
  const places: Array<[string, string | null]> = [
    ["newest", null],
    ["middle", cursors[Math.floor(cursors.length / 2)]],
    ["start", cursors.at(-1)!], // the page holding the transcript's first rows
  ];
  const times = new Map(places.map(([name]) => [name, [] as number[]]));
  const sizes = new Map<string, number>();
  for (let i = 0; i < reads; i++) {
    for (const [name, cursor] of places) {
      const s = performance.now();
      const p = await page(path, cursor, turns);
      times.get(name)!.push(performance.now() - s);
      sizes.set(name, p.turns.length);
    }
  }
  const raw = await wholeFile(path, false);
  const parsed = await wholeFile(path, true);
  console.log(
    `whole file once: read ${ms(raw.ms)} (${(raw.bytes / MB).toFixed(1)} MiB); ` +
      `read and map every row ${ms(parsed.ms)} (${parsed.rows} rows)`,
  );
  console.log(`page of ${turns} turns, ${reads} reads each:`);
  for (const [name] of places) {
    const sorted = times.get(name)!.sort((a, b) => a - b);
    const median = quantile(sorted, 0.5);
    console.log(
      `  ${name.padEnd(6)} (${sizes.get(name)} turns) median ${ms(median)}  p99 ${
        ms(quantile(sorted, 0.99))
      }  ` +
        `whole-file read / page: ${(raw.ms / median).toFixed(0)}x, ` +
        `read+map / page: ${(parsed.ms / median).toFixed(0)}x`,
    );
  }
  console.log(
    `walk of the whole history / read+map once: ${(walkMs / parsed.ms).toFixed(2)}x`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
