import { FLOOD_BYTES, ScreenModel, type ScreenModelOptions } from "./model.ts";
import type { OutputChunk } from "./terminal.ts";
import { encodeTerminalOutput } from "../../protocol/terminal_frames.ts";
import { visibleText, waitFor } from "../../tests/terminal_support.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import xt from "@xterm/headless";

const { Terminal: Xterm } = xt;

const enc = new TextEncoder();

/** A model that never sees quiet on its own (a test's pushes come faster than a minute). */
function model(over: Partial<ScreenModelOptions> = {}) {
  const pressure: boolean[] = [];
  const m = new ScreenModel({
    cols: 80,
    rows: 24,
    scrollback: 1000,
    parseAt: 1 << 30,
    highWater: 1 << 30,
    quietMs: 60_000,
    onTitle: () => {},
    onPressure: (over) => pressure.push(over),
    ...over,
  });
  let seq = 0;
  const push = (text: string): OutputChunk => {
    const bytes = enc.encode(text);
    const chunk = { seq: ++seq, bytes, frame: encodeTerminalOutput(1, seq, bytes) };
    m.push(chunk);
    return chunk;
  };
  return { m, push, pressure };
}

// Calls, so the compiler does not narrow one read of a getter into the next.
const where = (m: ScreenModel) =>
  `${m.parsedSeq} ${m.unparsedBytes === 0 ? "all parsed" : "unparsed"}`;
const size = (m: ScreenModel) => `${m.cols}x${m.rows} ${m.exactNow ? "exact" : "waiting"}`;

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\r\n`).join("");

Deno.test("model: output is parsed only once settled (or quiet), and the seq says how far", async () => {
  const { m, push } = model();
  try {
    push(lines(1, 30));
    push(lines(31, 40));
    if (where(m) !== "0 unparsed") throw new Error(`parsed while output flowed: ${where(m)}`);
    if (m.unparsedAfter(0).map((c) => c.seq).join() !== "1,2") throw new Error("backlog order");
    await m.settled();
    if (where(m) !== "2 all parsed") throw new Error(where(m));
    if (!m.text(24).endsWith("line 40")) throw new Error(m.text(24));
  } finally {
    m.dispose();
  }
});

Deno.test("model: a screen at the parsed seq plus the chunks after it draws the whole stream", async () => {
  const { m, push } = model();
  try {
    const all = [lines(1, 50), "\x1b[31mred\x1b[0m and ", "\x1b[2Jcleared\r\n", lines(51, 60)];
    push(all[0]);
    await m.settled();
    for (const piece of all.slice(1)) push(piece);
    const seq = m.parsedSeq;
    const screen = m.serialize(200);
    const tail = m.unparsedAfter(seq);
    if (seq !== 1 || tail.map((c) => c.seq).join() !== "2,3,4") throw new Error(`seq ${seq}`);
    const want = await visibleText(all, 80, 24);
    const got = await visibleText([screen, ...tail.map((c) => c.bytes)], 80, 24);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      throw new Error(`${got.lines.join("\n")}\n---\n${want.lines.join("\n")}`);
    }
  } finally {
    m.dispose();
  }
});

/** What a fresh xterm shows after the stream's pieces, a resize, then `after`. */
async function drawnWithResize(before: string, cols: number, rows: number, after: string) {
  const term = new Xterm({ cols: 80, rows: 24, allowProposedApi: true });
  try {
    await new Promise<void>((r) => term.write(before, r));
    term.resize(cols, rows);
    await new Promise<void>((r) => term.write(after, r));
    const b = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < b.length; y++) out.push(b.getLine(y)?.translateToString(true) ?? "");
    return out.join("\n").replace(/\n+$/, "");
  } finally {
    term.dispose();
  }
}

Deno.test("model: a resize waits behind the bytes written before it", async () => {
  const { m, push } = model();
  try {
    // A cursor move to column 75 lands there at 80 columns and clamps at 40: order shows.
    const before = "\x1b[75GA\r\nline two\r\n";
    push(before);
    m.resize(40, 10);
    push("after\r\n");
    if (size(m) !== "80x24 waiting") throw new Error(`the resize jumped the queue: ${size(m)}`);
    await m.settled();
    if (size(m) !== "40x10 exact") throw new Error(size(m));
    const want = await drawnWithResize(before, 40, 10, "after\r\n");
    const wrong = await drawnWithResize("", 40, 10, before + "after\r\n");
    if (want === wrong) throw new Error("the check cannot tell the orders apart");
    if (m.text(1000) !== want) throw new Error(`${m.text(1000)}\n---\n${want}`);
  } finally {
    m.dispose();
  }
});

Deno.test("model: past parseAt it parses while output flows; past highWater it asks for a pause", async () => {
  const { m, push, pressure } = model({ parseAt: 1000, highWater: 4000 });
  try {
    push(lines(1, 500)); // ~5 KB: over both bounds at once
    if (pressure.join() !== "true") throw new Error(`pressure ${pressure}`);
    // No settle and no quiet: only the bound can make it parse.
    await waitFor("the parse past parseAt", () => m.parsedSeq === 1);
    if (pressure.join() !== "true,false") throw new Error(`pressure ${pressure}`);
  } finally {
    m.dispose();
  }
});

Deno.test("model: after quiet it parses on its own", async () => {
  const { m, push } = model({ quietMs: 5 });
  try {
    push("hello\r\n");
    await waitFor("the parse after quiet", () => m.parsedSeq === 1);
    if (m.text(24) !== "hello") throw new Error(m.text(24));
  } finally {
    m.dispose();
  }
});

Deno.test("model: while it trails by a flood it waits for the flood's quiet, not the short one", async () => {
  const clock = new ManualClock();
  const { m, push } = model({ quietMs: 10, floodQuietMs: 500, clock });
  try {
    // A flood's worth in pieces under it: each alone would be parsed after the short quiet.
    const piece = lines(1, 400);
    for (let sent = 0; sent < FLOOD_BYTES; sent += piece.length) push(piece);
    clock.advanceBy(100);
    // Still waiting for quiet: nothing was handed to xterm, a timer is armed again.
    if (clock.pending !== 1) throw new Error(`not waiting after 100 ms: ${clock.pending} timers`);
    clock.advanceBy(400);
    await waitFor("the parse after the flood's quiet", () => m.unparsedBytes === 0);
    if (!m.text(24).endsWith("line 400")) throw new Error(m.text(24));
    // Caught up, a small chunk is parsed after the short quiet again.
    push("after\r\n");
    clock.advanceBy(10);
    await waitFor("the parse after the short quiet", () => m.unparsedBytes === 0);
    if (!m.text(24).endsWith("after")) throw new Error(m.text(24));
  } finally {
    m.dispose();
  }
});
