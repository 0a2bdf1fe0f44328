// After a reconnect the SDK attaches again the terminal the connection viewed, after its
// subscriptions and at the size last sent, so a program keeps getting its frames; one forge
// refuses on the new socket is named in `reconnected` in forge's words, and one detached by hand
// is not asked for. A real forge (`deno task start`) restarted on its port; the seat's shell is a
// real PTY; the redial's backoff runs on a clock the test moves by hand. spec: terminal_view,
// terminal_detach, terminal_resize; browser_view ("A connection that goes is detached with it"), browser_resize.
import { decodeBrowserFrame, encodeTerminalInput, type Slot } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { nextBrowserFrame } from "./browser_harness.ts";
import { output, restartable, undeclare } from "./client_support.ts";
import { seatWorld, until } from "./seats_harness.ts";

Deno.test("reattach: a terminal viewer gets frames again after forge restarts, at its size", async () => {
  await using world = await seatWorld([
    { name: "alpha", autoStart: false },
    { name: "beta", autoStart: false },
  ]);
  const forge = await restartable(world);
  const [seat, beta]: Slot[] = [world.lead("alpha"), world.lead("beta")];

  // The viewer: the seat's terminal (no id: the seat's own, opened on first use), laid out.
  const viewer = await forge.connect();
  viewer.c.send({ kind: "terminal_view", seat, reply_to: 1 });
  const first = await viewer.c.next((m) => m.kind === "reply" && m.reply_to === 1, 30_000);
  const id = (first.body as { id: number }).id;
  await viewer.c.sendChecked({ kind: "terminal_resize", seat, id, cols: 93, rows: 27 });
  // One viewing beta's terminal: beta leaves the config while forge is down.
  const gone = await forge.connect();
  gone.c.send({ kind: "terminal_view", seat: beta });
  await gone.c.next((m) => m.kind === "terminal_view", 30_000);
  // One that lets its viewer go while forge is down: nothing to ask for again.
  const leaving = await forge.connect();
  leaving.c.send({ kind: "terminal_view", seat, reply_to: 1 });
  await leaving.c.next((m) => m.kind === "terminal_view", 30_000);

  await forge.restart(async () => {
    leaving.c.send({ kind: "terminal_detach" });
    await undeclare(world, "beta");
  });
  const { before } = viewer;

  const back = await viewer.redial();
  assertEquals([back.reattached, back.unattached], [[{ kind: "terminal_view", seat }], []]);
  const view = await viewer.c.nextFrame(
    (f) => !before.has(f) && f.type === "json" && f.data.kind === "terminal_view",
    30_000,
  );
  assert(view.type === "json");
  const again = view.data.id as number;

  // Frames flow on the new socket, and the PTY has the size the viewer last sent.
  await viewer.c.sendChecked({ kind: "terminal_control", seat, id: again, take: true });
  viewer.c.sendBinary(encodeTerminalInput(again, new TextEncoder().encode("stty size\r")));
  await until(() => /27 93/.test(output(viewer.c, again, before)), 30_000, "stty's answer");

  const leftGo = await leaving.redial();
  assertEquals([leftGo.reattached, leftGo.unattached], [[], []]);

  const refused = await gone.redial();
  assertEquals(refused.reattached, []);
  assertEquals(refused.unattached.map((u) => u.attachment), [{
    kind: "terminal_view",
    seat: beta,
  }]);
  assertMatch(refused.unattached[0].why, /Acme\/beta\/lead/);
  await forge.close();
});

Deno.test({
  name: "reattach: a browser viewer gets frames again after forge restarts, at its size",
  // The browser host's Chromium outlives the test's own bookkeeping of ops (browser_test.ts too).
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
    const forge = await restartable(world);
    const seat: Slot = world.lead("alpha");
    const { c, before, redial } = await forge.connect();
    // No tab: the seat's current one, else the profile's first (the host's boot tab).
    c.send({ kind: "browser_view", seat, reply_to: 1 });
    const attached = await c.next((m) => m.kind === "reply" && m.reply_to === 1, 60_000);
    assertEquals((attached.body as { ok: boolean }).ok, true, JSON.stringify(attached.body));
    await c.sendChecked({ kind: "browser_resize", width: 640, height: 400, scale: 1 });
    await nextBrowserFrame(c, (f) => f.pageWidth === 640 && f.pageHeight === 400, 60_000);

    await forge.restart();
    const back = await redial();
    assertEquals([back.reattached, back.unattached], [[{ kind: "browser_view", seat }], []]);
    // The new run's host paints for this viewer, laid out at the size it last sent.
    const painted = await c.nextFrame((f) => {
      if (before.has(f) || f.type !== "binary" || f.kind !== 1) return false;
      const d = decodeBrowserFrame(f.bytes);
      return d.ok && d.frame.pageWidth === 640 && d.frame.pageHeight === 400;
    }, 60_000);
    assertEquals(painted.type, "binary");
    await forge.close();
  },
});
