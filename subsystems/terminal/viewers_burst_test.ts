/**
 * Bursts through a real shell: the model trails the stream, so a repaint is
 * a screen at the model's seq plus the chunks after it, or waits for the model. Every viewer
 * here is a RecordingSink that decodes its kind-4 frames; what it draws is compared with a fresh
 * xterm fed every byte the PTY produced (spec: terminal_view's seq, binary kind 4).
 */
import { type OutputChunk, ShellTerminal, type ShellTerminalOptions } from "./terminal.ts";
import { ViewerSet } from "./viewers.ts";
import {
  RecordingSink,
  replay,
  type ReplayPiece,
  testEnv,
  waitFor,
  withTempHome,
} from "../../tests/terminal_support.ts";

const SEAT = { org: "acme", project: "web", label: "lead" };
const latin1 = new TextDecoder("latin1");

/** A bash, its viewer set, and every chunk it produced from the first (the reference). */
async function withBurst(
  opts: { tailMax?: number; terminal?: Partial<ShellTerminalOptions> },
  run: (t: {
    term: ShellTerminal;
    viewers: ViewerSet;
    chunks: OutputChunk[];
    /** Resolves once `marker` has been produced and the shell is back at its prompt. */
    produced: (marker: string) => Promise<void>;
  }) => Promise<void>,
): Promise<void> {
  await withTempHome(async (home) => {
    const term = new ShellTerminal({
      id: 3,
      cwd: home,
      shell: "/bin/bash",
      env: testEnv(home),
      pollMs: 50,
      ...opts.terminal,
    });
    const chunks: OutputChunk[] = [];
    let tail = "";
    term.onOutput((c) => {
      chunks.push(c);
      tail = (tail + latin1.decode(c.bytes.subarray(-64))).slice(-128);
    });
    // The system bashrc sets its own prompt; "$ " is set first so the end is recognisable.
    const produced = async (marker: string) => {
      await waitFor(
        `"${marker}" and the prompt`,
        () => tail.includes(marker) && tail.endsWith("$ "),
      );
    };
    const viewers = new ViewerSet(term, { seat: SEAT, tailMax: opts.tailMax });
    try {
      term.write("PS1='$ '; echo ready-$((2+2))\r");
      await produced("ready-4");
      await run({ term, viewers, chunks, produced });
    } finally {
      viewers.dispose();
      await term.close();
    }
  });
}

/** A viewer holding control, and typing as it. */
function controller(viewers: ViewerSet) {
  const early = new RecordingSink();
  const id = viewers.attach(early);
  viewers.control(id, true);
  return { early, type: (keys: string) => viewers.input(id, keys) };
}

/** Resolves once `late` holds the terminal's newest seq. */
async function caughtUp(late: RecordingSink, term: ShellTerminal): Promise<void> {
  await waitFor("the late viewer to reach the terminal's seq", () => late.lastSeq() === term.seq);
}

/** Throws unless `sink`'s frames continue its last screen's seq one by one up to `last`. */
function gapless(sink: RecordingSink, last: number): void {
  const from = sink.views().at(-1)!.seq as number;
  const seqs = sink.frames.map((f) => f.seq).filter((s) => s > from);
  const want = Array.from({ length: last - from }, (_, i) => from + 1 + i);
  if (seqs.join() !== want.join()) {
    throw new Error(
      `after screen ${from}: frames ${seqs.slice(0, 5)}.. (${seqs.length}), want ${want.length}`,
    );
  }
}

/** Throws unless the sink draws what every produced byte draws (screen, 200 scrollback lines, cursor). */
async function drawsTheStream(sink: RecordingSink, pieces: ReplayPiece[], cols = 80, rows = 24) {
  const mine = [...sink.stream];
  const want = await replay(pieces, 80, 24);
  const got = await replay(mine, cols, rows);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    const diff = got.lines.findIndex((l, i) => l !== want.lines[i]);
    throw new Error(
      `line ${diff}: ${JSON.stringify(got.lines[diff])} vs ${JSON.stringify(want.lines[diff])}; ` +
        `cursor ${got.cursor} vs ${want.cursor}; ${got.lines.length} vs ${want.lines.length} lines`,
    );
  }
}

Deno.test("burst: a late viewer's repaint after a multi-MB burst draws exactly every byte", async () => {
  // The model only parses when asked: after the burst it trails by every byte of it.
  await withBurst(
    { terminal: { modelQuietMs: 60_000 } },
    async ({ term, viewers, chunks, produced }) => {
      const { early, type } = controller(viewers);
      type("seq 1 300000; echo done-$((6*7))\r");
      await produced("done-42");
      const trailing = term.unparsedBytes;
      if (trailing < 1e6) throw new Error(`the model trails by only ${trailing} bytes`);
      const late = new RecordingSink();
      viewers.attach(late);
      // Over the tail bound: nothing yet, then a current screen once the model has caught up.
      if (late.json.length !== 0) throw new Error("a screen was sent before the model caught up");
      await waitFor("the late screen", () => late.views().length === 1);
      await caughtUp(late, term);
      gapless(late, term.seq);
      gapless(early, term.seq);
      const bytes = chunks.map((c) => c.bytes);
      await drawsTheStream(late, bytes);
      await drawsTheStream(early, bytes);
      if (!(await late.draw()).lines.includes("done-42")) throw new Error("no done-42 on screen");
    },
  );
});

for (
  const [path, tailMax] of [["replays the tail", Infinity], ["waits for the model", 0]] as const
) {
  Deno.test(`burst: a viewer attached mid-burst ${path}: no gap, no duplicate, exact`, async () => {
    await withBurst({ tailMax }, async ({ term, viewers, chunks, produced }) => {
      const { type } = controller(viewers);
      const late = new RecordingSink();
      let bytes = 0;
      // Attached from inside the stream, so it lands mid-burst for sure.
      const off = term.onOutput((c) => {
        bytes += c.bytes.length;
        if (bytes > 500_000 && bytes - c.bytes.length <= 500_000) viewers.attach(late);
      });
      type("seq 1 300000; echo done-$((6*7))\r");
      await produced("done-42");
      off();
      await caughtUp(late, term);
      if (late.views().length !== 1) throw new Error(`${late.views().length} screens`);
      gapless(late, term.seq);
      await drawsTheStream(late, chunks.map((c) => c.bytes));
    });
  });
}

Deno.test("burst: a resize behind unparsed bytes: the repaint waits and draws the stream's sizes", async () => {
  await withBurst(
    { terminal: { modelQuietMs: 60_000 } },
    async ({ term, viewers, chunks, produced }) => {
      const { type } = controller(viewers);
      // 70-column lines: one row each at 80 columns, two at 40.
      type("for i in $(seq 1 400); do printf '%070d\\n' $i; done; echo w-$((3*3))\r");
      await produced("w-9");
      term.resize(40, 12);
      const resizedAt = term.seq;
      if (term.screenExact) throw new Error("the resize did not wait behind the unparsed bytes");
      type("echo after-$((1+1))\r");
      await produced("after-2");
      const late = new RecordingSink();
      viewers.attach(late);
      await caughtUp(late, term);
      const view = late.views()[0];
      if (view.cols !== 40 || view.rows !== 12) {
        throw new Error(`screen ${view.cols}x${view.rows}`);
      }
      gapless(late, term.seq);
      const pieces: ReplayPiece[] = [
        ...chunks.filter((c) => c.seq <= resizedAt).map((c) => c.bytes),
        { cols: 40, rows: 12 },
        ...chunks.filter((c) => c.seq > resizedAt).map((c) => c.bytes),
      ];
      await drawsTheStream(late, pieces, 40, 12);
    },
  );
});
