// After a reconnect the SDK asks again for the roles the connection held on the viewers it
// re-attached: the person's control of a terminal and of a browser tab, and a terminal_pause in
// force. Control someone else took while the connection was away is not taken back from them:
// `reconnected` says who holds it. A real forge (`deno task start`) restarted on its port; the
// seat's shell is a real PTY and the browser real Chromium; each client's redial backoff runs on a
// clock the test moves by hand. spec: terminal_control ("dropping the connection releases it"),
// terminal_pause ("A resume is answered with a fresh terminal_view"), browser_control.
import { encodeTerminalInput, type Slot } from "../protocol/mod.ts";
import type { ForgeClient, Frame } from "../tools/client_lib.ts";
import { assert, assertEquals } from "./assert.ts";
import { output, restartable } from "./client_support.ts";
import { seatWorld, until } from "./seats_harness.ts";

/** The newest view frame of `kind` a client was sent after `before`, waiting for one. */
async function viewAfter(c: ForgeClient, kind: string, before: Set<Frame>) {
  const f = await c.nextFrame(
    (f) => !before.has(f) && f.type === "json" && f.data.kind === kind,
    60_000,
  );
  assert(f.type === "json");
  return f.data as { id: number; viewer: number; controller: number | null; screen?: string };
}

/** Attaches `seat`'s terminal and takes its control; answers the terminal's id. */
async function control(c: ForgeClient, seat: Slot): Promise<number> {
  c.send({ kind: "terminal_view", seat, reply_to: 1 });
  const reply = await c.next((m) => m.kind === "reply" && m.reply_to === 1, 30_000);
  const id = (reply.body as { id: number }).id;
  await c.sendChecked({ kind: "terminal_control", seat, id, take: true });
  return id;
}

/** Types `echo <word>-$((6*7))` into terminal `id` (the keys land only for its controller). */
function echo(c: ForgeClient, id: number, word: string): void {
  c.sendBinary(encodeTerminalInput(id, new TextEncoder().encode(`echo ${word}-$((6*7))\r`)));
}

Deno.test("roles: a terminal's control and pause held before forge restarts are held after", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
  const forge = await restartable(world);
  const seat = world.lead("alpha");
  const { c, before, redial } = await forge.connect();
  await control(c, seat);
  await c.sendChecked({ kind: "terminal_pause", paused: true });

  await forge.restart();
  const back = await redial();
  assertEquals([back.reattached, back.regained, back.lost], [[{ kind: "terminal_view", seat }], [
    { role: "terminal_pause", seat },
    { role: "terminal_control", seat },
  ], []]);

  // A second viewer on the new run sees the first hold the control, and the first one's keys land.
  const mine = await viewAfter(c, "terminal_view", before);
  const watcher = await forge.connect();
  watcher.c.send({ kind: "terminal_view", seat });
  const seen = await viewAfter(watcher.c, "terminal_view", new Set());
  assertEquals([seen.id, seen.controller], [mine.id, mine.viewer]);
  echo(c, mine.id, "held");
  await until(() => /held-42/.test(output(watcher.c, mine.id, new Set())), 30_000, "the echo");
  // It was paused: sent none of the echo, and its resume is answered with a fresh screen that the
  // stream continues (a viewer that is not paused is sent nothing for a resume).
  assertEquals(/held-42/.test(output(c, mine.id, before)), false);
  const resumed = new Set(c.frames);
  c.send({ kind: "terminal_pause", paused: false });
  const fresh = await viewAfter(c, "terminal_view", resumed);
  const drawn = () => `${fresh.screen}${output(c, mine.id, resumed)}`;
  await until(() => /held-42/.test(drawn()), 30_000, "the echo on the resumed screen");
  await forge.close();
});

Deno.test("roles: control another took while forge was down is not taken back; it is said", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
  const forge = await restartable(world);
  const seat = world.lead("alpha");
  const a = await forge.connect();
  const b = await forge.connect();
  b.c.send({ kind: "terminal_view", seat });
  await b.c.next((m) => m.kind === "terminal_view", 30_000);
  await control(a.c, seat);

  await forge.restart();
  // b is back first and takes the control on the new run.
  await b.redial();
  const theirs = await viewAfter(b.c, "terminal_view", b.before);
  await b.c.sendChecked({ kind: "terminal_control", seat, id: theirs.id, take: true });
  const back = await a.redial();
  assertEquals([back.reattached, back.regained], [[{ kind: "terminal_view", seat }], []]);
  assertEquals(back.lost.map((l) => l.role), [{ role: "terminal_control", seat }]);
  assertEquals(
    back.lost[0].why,
    `viewer ${theirs.viewer} took control of terminal ${theirs.id} of Acme/alpha/lead meanwhile`,
  );
  // b still holds it: its keys land.
  echo(b.c, theirs.id, "theirs");
  await until(() => /theirs-42/.test(output(b.c, theirs.id, b.before)), 30_000, "b's echo");
  await forge.close();
});

Deno.test({
  name: "roles: a browser tab's control held before forge restarts is held after",
  // The browser host's Chromium outlives the test's own bookkeeping of ops (browser_test.ts too).
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
    const forge = await restartable(world);
    const seat = world.lead("alpha");
    const { c, before, redial } = await forge.connect();
    c.send({ kind: "browser_view", seat, reply_to: 1 });
    const attached = await c.next((m) => m.kind === "reply" && m.reply_to === 1, 60_000);
    assertEquals((attached.body as { ok: boolean }).ok, true, JSON.stringify(attached.body));
    await c.sendChecked({ kind: "browser_control", take: true });

    await forge.restart();
    const back = await redial();
    assertEquals([back.reattached, back.regained, back.lost], [
      [{ kind: "browser_view", seat }],
      [{ role: "browser_control", seat }],
      [],
    ]);
    // The new run's tab names this viewer as its controller, and only a controller moves it.
    const views = c.frames.filter((f) =>
      !before.has(f) && f.type === "json" && f.data.kind === "browser_view"
    );
    const last = views.at(-1);
    assert(last?.type === "json");
    assertEquals(last.data.controller, last.data.viewer);
    await c.sendChecked({ kind: "browser_nav", back: true });
    await forge.close();
  },
});
