import { ShellTerminal } from "./terminal.ts";
import { ViewerSet } from "./viewers.ts";
import { memoryLogger } from "../../server/log.ts";
import { assertEquals } from "../../tests/assert.ts";
import { RecordingSink, testEnv, waitFor, withTempHome } from "../../tests/terminal_support.ts";

const SEAT = { org: "acme", project: "web", label: "lead" };

/** A bash in a temp home with its viewer set; closed and disposed after `run`. */
async function withViewers(
  run: (term: ShellTerminal, viewers: ViewerSet, home: string) => Promise<void>,
  cols = 80,
  rows = 24,
): Promise<void> {
  await withTempHome(async (home) => {
    const term = new ShellTerminal({
      id: 7,
      cwd: home,
      cols,
      rows,
      shell: "/bin/bash",
      env: testEnv(home),
      pollMs: 50,
    });
    const viewers = new ViewerSet(term, { seat: SEAT, recheckMs: 10 });
    try {
      await run(term, viewers, home);
    } finally {
      viewers.dispose();
      await term.close();
    }
  });
}

function expectOk(outcome: { ok: boolean; why?: string }, what: string): void {
  if (!outcome.ok) throw new Error(`${what}: ${outcome.why}`);
}

/** Waits until a sink has been sent everything the terminal has produced. */
function caughtUp(term: ShellTerminal, sink: RecordingSink): Promise<boolean> {
  return waitFor("the viewer to reach the terminal's seq", () => sink.lastSeq() === term.seq);
}

Deno.test("viewers: two viewers see the same bytes (spec: binary kind 4)", async () => {
  await withViewers(async (term, viewers) => {
    const a = new RecordingSink();
    const b = new RecordingSink();
    const va = viewers.attach(a);
    const vb = viewers.attach(b);
    const view = a.views()[0];
    if (
      JSON.stringify(view.seat) !== JSON.stringify(SEAT) || view.id !== 7 || view.viewer !== va ||
      view.controller !== null
    ) {
      throw new Error(`terminal_view ${JSON.stringify({ ...view, screen: "..." })}`);
    }
    if (b.views()[0].viewers !== 2 || b.views()[0].viewer !== vb) throw new Error("b's view");
    expectOk(viewers.control(va, true), "take");
    expectOk(viewers.input(va, "for i in 1 2 3; do echo two-$((i*11)); done\r"), "input");
    await waitFor(
      "both to see the output",
      () => a.text().includes("two-33") && b.text().includes("two-33"),
    );
    await caughtUp(term, a);
    await caughtUp(term, b);
    // Compare from the later of the two attach points; before it one saw a screen instead.
    const from = Math.max(a.views()[0].seq as number, b.views()[0].seq as number);
    const tail = (s: RecordingSink) =>
      s.frames.filter((f) => f.seq > from).map((f) => `${f.id}:${f.seq}:${f.bytes.join(",")}`);
    const [ta, tb] = [tail(a), tail(b)];
    if (ta.length === 0 || ta.join("|") !== tb.join("|")) {
      throw new Error("the viewers' bytes differ");
    }
    ta.forEach((_, i) => {
      if (a.frames.filter((f) => f.seq > from)[i].seq !== from + i + 1) throw new Error("a gap");
    });
  });
});

Deno.test("viewers: a watcher's input is refused and never reaches the shell", async () => {
  await withViewers(async (term, viewers) => {
    const a = new RecordingSink();
    const b = new RecordingSink();
    const va = viewers.attach(a);
    const vb = viewers.attach(b);
    const before = viewers.input(va, "echo early\r");
    if (before.ok || !before.why.includes("the agent holds it")) {
      throw new Error("input before take");
    }
    expectOk(viewers.control(va, true), "take");
    const refused = viewers.input(vb, "echo leaked-$((2+2))\r");
    if (refused.ok || !refused.why.includes(`viewer ${vb} does not hold control, viewer ${va}`)) {
      throw new Error(`watcher input: ${JSON.stringify(refused)}`);
    }
    expectOk(viewers.input(va, "echo fine-$((3+3))\r"), "controller input");
    await waitFor("the controller's command", () => b.text().includes("fine-6"));
    await caughtUp(term, b);
    if (b.text().includes("leaked")) throw new Error("the watcher's keystrokes reached the shell");
    const stranger = viewers.input(99, "x");
    if (stranger.ok || !stranger.why.includes("viewer 99 is not attached")) throw new Error("99");
  });
});

Deno.test("viewers: a take moves control, the previous holder is told, a release is the holder's", async () => {
  await withViewers((_term, viewers) => {
    const a = new RecordingSink();
    const b = new RecordingSink();
    const c = new RecordingSink();
    const va = viewers.attach(a);
    const vb = viewers.attach(b);
    const vc = viewers.attach(c);
    expectOk(viewers.control(va, true), "a takes");
    expectOk(viewers.control(vb, true), "b takes from a");
    if (viewers.controller !== vb) throw new Error(`controller ${viewers.controller}`);
    for (const sink of [a, b, c]) {
      const last = sink.controls().at(-1);
      if (
        last?.controller !== vb || JSON.stringify(last.seat) !== JSON.stringify(SEAT) ||
        last.id !== 7
      ) {
        throw new Error(`a viewer did not hear b's take: ${JSON.stringify(sink.controls())}`);
      }
    }
    if (viewers.input(va, "x").ok) throw new Error("a kept input after losing control");
    const release = viewers.control(va, false);
    if (release.ok || !release.why.includes(`viewer ${vb} does`)) throw new Error("a released b's");
    expectOk(viewers.control(vb, false), "b releases");
    if (a.controls().at(-1)?.controller !== null) throw new Error("release not heard");
    expectOk(viewers.control(vc, true), "c takes");
    viewers.detach(vc);
    if (viewers.controller !== null || a.controls().at(-1)?.controller !== null) {
      throw new Error("detaching the controller did not release control");
    }
    if (a.controls().length !== 5) throw new Error(`a heard ${a.controls().length} control frames`);
    return Promise.resolve();
  });
});

for (const program of ["less", "vim"]) {
  Deno.test(`viewers: a late attach to a running ${program} repaints the same screen`, async () => {
    await withViewers(async (term, viewers, home) => {
      const lines = Array.from({ length: 300 }, (_, i) => `\x1b[3${i % 8}mline ${i}\x1b[0m tail`);
      await Deno.writeTextFile(`${home}/numbers.txt`, lines.join("\n") + "\n");
      const early = new RecordingSink();
      const ve = viewers.attach(early);
      expectOk(viewers.control(ve, true), "take");
      const flags = program === "less" ? "-R" : "-u NONE -N";
      expectOk(viewers.input(ve, `${program} ${flags} numbers.txt\r`), "start");
      await waitFor(`${program} to run`, () => term.state.command === program);
      // Page forward twice, so the screen is not the program's first paint.
      expectOk(viewers.input(ve, program === "less" ? "ff" : "\x06\x06"), "page");
      const shows = async (sink: RecordingSink) => (await sink.draw()).lines.join("\n");
      await waitFor("the third page", async () => /line 4\d/.test(await shows(early)));
      const late = new RecordingSink();
      viewers.attach(late);
      await caughtUp(term, early);
      await caughtUp(term, late);
      const [x, y] = [await early.draw(), await late.draw()];
      if (x.buffer !== "alternate" || y.buffer !== "alternate") {
        throw new Error(`buffers ${x.buffer}/${y.buffer}: the full-screen program's was lost`);
      }
      if (x.lines.join("\n") !== y.lines.join("\n") || x.cursor.join() !== y.cursor.join()) {
        throw new Error(`late repaint differs:\n${x.lines.join("\n")}\n---\n${y.lines.join("\n")}`);
      }
      // And both stay the same screen as the program keeps drawing.
      expectOk(viewers.input(ve, program === "less" ? "b" : "\x02"), "page back");
      await waitFor("the page back", async () => !(await shows(late)).includes("line 6"));
      await caughtUp(term, late);
      await caughtUp(term, early);
      if ((await shows(early)) !== (await shows(late))) throw new Error("diverged after paging");
      expectOk(viewers.input(ve, program === "less" ? "q" : ":q!\r"), "quit");
      await waitFor(`${program} to quit`, () => term.state.kind === "idle");
    });
  });
}

Deno.test("viewers: a paused viewer is not written; a resume sends a fresh screen", async () => {
  await withViewers(async (term, viewers) => {
    const a = new RecordingSink();
    const b = new RecordingSink();
    const va = viewers.attach(a);
    const vb = viewers.attach(b);
    expectOk(viewers.control(va, true), "take");
    expectOk(viewers.pause(vb, true), "pause");
    const framesBefore = b.frames.length;
    expectOk(viewers.input(va, "echo p-$((5*5))\r"), "input");
    await waitFor("a to see it", () => a.text().includes("p-25"));
    await caughtUp(term, a);
    if (b.frames.length !== framesBefore) throw new Error("a paused viewer was written to");
    expectOk(viewers.pause(vb, false), "resume");
    const resumed = b.views().at(-1)!;
    // The repaint reflects what the model has parsed (it may lag the PTY under load); the chunks
    // after its seq follow as frames, so the stream continues with neither gap nor replay.
    if (b.views().length !== 2) {
      throw new Error(`resume view ${JSON.stringify({ ...resumed, screen: "..." })}`);
    }
    await caughtUp(term, b);
    const drawn = await b.draw();
    if (!drawn.lines.includes("p-25")) {
      throw new Error(`resumed screen:\n${drawn.lines.join("\n")}`);
    }
    if (b.frames.length !== framesBefore + (term.seq - (resumed.seq as number))) {
      throw new Error("the resume replayed missed frames");
    }
  });
});

Deno.test("viewers: a viewer over its buffer bound gets a fresh screen, not the backlog", async () => {
  await withViewers(async (term, viewers) => {
    const a = new RecordingSink();
    const slow = new RecordingSink();
    const va = viewers.attach(a);
    viewers.attach(slow);
    expectOk(viewers.control(va, true), "take");
    slow.pending = 2 * 1024 * 1024; // over the 1 MiB bound
    const framesBefore = slow.frames.length;
    expectOk(viewers.input(va, "seq 1 2000; echo done-$((7*7))\r"), "burst");
    await waitFor("a to see the burst", () => a.text().includes("done-49"));
    await caughtUp(term, a);
    if (slow.frames.length !== framesBefore) throw new Error("a behind viewer was sent bytes");
    slow.pending = 0; // the peer read its buffer
    await waitFor("a fresh screen", () => slow.views().length === 2);
    await caughtUp(term, slow);
    const fresh = slow.views()[1].seq as number;
    const after = slow.frames.slice(framesBefore).map((f) => f.seq);
    if (after.some((s, i) => s !== fresh + i + 1)) throw new Error(`not continued: ${after}`);
    const drawn = await slow.draw();
    if (!drawn.lines.includes("done-49") || !drawn.lines.includes("2000")) {
      throw new Error(`fresh screen:\n${drawn.lines.join("\n")}`);
    }
  });
});

Deno.test("viewers: a resize the PTY refuses is named in forge's words, its cause logged", async () => {
  await withTempHome(async (home) => {
    const term = new ShellTerminal({ id: 7, cwd: home, shell: "/bin/bash", env: testEnv(home) });
    const log = memoryLogger();
    const viewers = new ViewerSet(term, { seat: SEAT, log });
    try {
      const viewer = viewers.attach(new RecordingSink());
      expectOk(viewers.resize(viewer, 100, 30), "a resize");
      // The PTY refusing as node-pty's addon does when its descriptor is gone (the shell's exit
      // racing the resize): its words are the engine's, for the log alone.
      term.resize = () => {
        throw new Error("ioctl(2) failed, EBADF");
      };
      assertEquals(viewers.resize(viewer, 120, 40), {
        ok: false,
        why: "terminal 7 of acme/web/lead: the resize to 120x40 failed; the log has the cause",
      });
      const logged = log.records.find((r) => r.event === "terminal_resize_failed") as
        | { error?: unknown }
        | undefined;
      assertEquals((logged?.error as Error | undefined)?.message, "ioctl(2) failed, EBADF");
    } finally {
      viewers.dispose();
      await term.close();
    }
  });
});
