/**
 * History paging below the window: `more` over a real socket against forge
 * running as its own process (`deno run -A main.ts`), so the read, the encode and the send are all
 * in the figure, beside the baseline a reader without a pager pays: the whole transcript read and
 * every row mapped once, in this process.
 *
 * The seat is one the session book remembers with no process running it (as after a restart), its
 * transcript generated from real CLI-written lines (`fixtures/history/generate.ts`).
 * Arms, interleaved round by round with the order turning: a page at the newest turns, in the
 * middle and at the very start, and the whole-file read. Then a cold pair: the page cache dropped
 * before a middle page and before a whole-file read, where this machine permits it (root); else
 * the run says it was warm. Every arm prints what it moved.
 *
 *   tools/deno.sh task bench paging [--size-mb 500] [--rounds 9] [--turns 20] [--cold-pairs 3]
 */
import { parseArgs } from "node:util";
import { GENERATED_SESSION, writeGenerated } from "../../fixtures/history/generate.ts";
import { lineFrame } from "../../server/workspace/conversation/rows.ts";
import { ForgeClient } from "../client_lib.ts";
import { dropCaches } from "./arms/process.ts";
import { forgeArgs, listening } from "./arms/seat_fixtures.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    "size-mb": { type: "string", default: "500" },
    // Each round reads the 500 MiB file whole (3-4 s); 9 give a median and range of pages that
    // are hundreds of times cheaper, which is all the figure says.
    rounds: { type: "string", default: "9" },
    turns: { type: "string", default: "20" },
    "cold-pairs": { type: "string", default: "3" },
  },
});
const MB = 1 << 20;
const TURNS = Number(values.turns);
const ROUNDS = Number(values.rounds);
const REPO = new URL("../../", import.meta.url).pathname;
const SEAT = { org: "Bench", project: "big", label: "lead" };
type Page = { turns: { messages: unknown[] }[]; cursor: string | null };

const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
function spread(xs: number[], d = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${pct(s, 50).toFixed(d)} (${s[0].toFixed(d)}..${s.at(-1)!.toFixed(d)})`;
}
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1] ?? 0) / 1024;

/** Reads the whole file once in 1 MiB reads and maps every row as a page would. */
async function wholeFile(path: string) {
  const t0 = performance.now();
  using file = await Deno.open(path);
  const buf = new Uint8Array(MB);
  const dec = new TextDecoder();
  let carry = "";
  let rows = 0;
  let bytes = 0;
  for (let n = await file.read(buf); n !== null; n = await file.read(buf)) {
    bytes += n;
    const lines = (carry + dec.decode(buf.subarray(0, n), { stream: true })).split("\n");
    carry = lines.pop()!;
    for (const l of lines) if (lineFrame(l)) rows++;
  }
  return { ms: performance.now() - t0, rows, bytes };
}

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-bench-paging-" }));
await Deno.mkdir(`${dir}/big`);
await Deno.mkdir(`${dir}/state/seats`, { recursive: true });
const transcript = `${dir}/${GENERATED_SESSION}.jsonl`;
const { bytes, repetitions } = await writeGenerated(transcript, Number(values["size-mb"]) * MB);
await Deno.writeTextFile(
  `${dir}/state/seats/sessions.json`,
  JSON.stringify({
    "Bench/big/lead": { slot: SEAT, session_id: GENERATED_SESSION, cwd: `${dir}/big`, transcript },
  }),
);
await Deno.writeTextFile(
  `${dir}/forge.toml`,
  `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n[[orgs]]\nname = "Bench"\n` +
    `accounts = ["Fake"]\n[[orgs.projects]]\nname = "big"\npath = "${dir}/big"\n`,
);
const server = new Deno.Command(Deno.execPath(), {
  args: forgeArgs(`${dir}/forge.toml`),
  cwd: REPO,
  stdout: "piped",
  stderr: "null",
  env: { HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
}).spawn();
try {
  const port = await listening(server.stdout);
  const c = await ForgeClient.connect(`ws://127.0.0.1:${port}/socket`);
  c.send({ kind: "subscribe", what: { session: SEAT } });
  const snap = (await c.next((m) => m.kind === "snapshot")).data as { conversation: Page };
  let wire = 0;
  c.socket.addEventListener("message", (e) => (wire += String(e.data).length));
  const more = async (before: string) => {
    const t0 = performance.now();
    const w0 = wire;
    c.send({ kind: "more", conversation: SEAT, before, turns: TURNS });
    const p = await c.next((m) => m.kind === "page" || m.kind === "error", 60_000);
    if (p.kind !== "page") throw new Error(`more refused: ${JSON.stringify(p).slice(0, 300)}`);
    return { ms: performance.now() - t0, page: p as unknown as Page, bytes: wire - w0 };
  };

  // The walk: every page from the snapshot to the first row, the server's RSS after each.
  const cursors: string[] = [];
  const rss0 = rssOf(server.pid);
  let rssMax = rss0;
  let rows = snap.conversation.turns.reduce((n, t) => n + t.messages.length, 0);
  const w0 = performance.now();
  for (let cursor = snap.conversation.cursor; cursor !== null;) {
    cursors.push(cursor);
    const { page } = await more(cursor);
    rows += page.turns.reduce((n, t) => n + t.messages.length, 0);
    rssMax = Math.max(rssMax, rssOf(server.pid));
    cursor = page.cursor;
  }
  const walkMs = performance.now() - w0;
  console.log(
    `transcript ${(bytes / MB).toFixed(0)} MiB (${repetitions} real sessions repeated); walk: ` +
      `${cursors.length} pages, ${rows} rows in ${(walkMs / 1000).toFixed(2)} s; server RSS ` +
      `${rss0.toFixed(0)} MiB before, max ${rssMax.toFixed(0)} MiB (+${
        (rssMax - rss0).toFixed(0)
      })`,
  );

  const places: [string, string][] = [
    ["newest", cursors[0]],
    ["middle", cursors[Math.floor(cursors.length / 2)]],
    ["start", cursors.at(-1)!],
  ];
  const times = new Map<string, number[]>();
  const moved = new Map<string, string>();
  const add = (k: string, ms: number, what: string) => {
    times.set(k, [...(times.get(k) ?? []), ms]);
    moved.set(k, what);
  };
  for (let r = 0; r < ROUNDS; r++) {
    const arms = [...places.map(([name]) => name), "whole file"];
    for (const arm of r % 2 === 0 ? arms : arms.reverse()) {
      if (arm === "whole file") {
        const w = await wholeFile(transcript);
        add(arm, w.ms, `${(w.bytes / MB).toFixed(0)} MiB read, ${w.rows} rows mapped`);
        continue;
      }
      const m = await more(places.find(([n]) => n === arm)![1]);
      add(
        arm,
        m.ms,
        `${m.page.turns.length} turns, ${(m.bytes / 1024).toFixed(0)} KiB on the wire`,
      );
    }
  }
  const cold: [string, number][] = [];
  for (let i = 0; i < Number(values["cold-pairs"]); i++) {
    if (!(await dropCaches())) break;
    cold.push(["middle, cold", (await more(places[1][1])).ms]);
    await dropCaches();
    cold.push(["whole file, cold", (await wholeFile(transcript)).ms]);
  }
  console.log(
    `${ROUNDS} rounds, order turning each round (load ${
      Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
    }):`,
  );
  const whole = times.get("whole file")!;
  for (const [arm, ms] of times) {
    const ratio = arm === "whole file"
      ? ""
      : `   whole file / page ${spread(ms.map((x, i) => whole[i] / x), 0)}x`;
    console.log(`  ${arm.padEnd(10)} ${spread(ms)} ms${ratio}   moved ${moved.get(arm)}`);
  }
  if (cold.length === 0) console.log("  cold arms: not run (no permission to drop the page cache)");
  for (const name of ["middle, cold", "whole file, cold"]) {
    const ms = cold.filter(([n]) => n === name).map(([, x]) => x);
    if (ms.length) console.log(`  ${name.padEnd(16)} ${spread(ms)} ms (${ms.length} pairs)`);
  }
  await c.close();
} finally {
  server.kill("SIGTERM");
  await server.status;
  await Deno.remove(dir, { recursive: true });
}
