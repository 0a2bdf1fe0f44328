// Spawned tier, the real CLI's Monitor tool on the fake API (fixtures/monitor/script.json).
// spec: session > monitors ("the watches the session has running", pushed as monitors_changed)
// and composer > machine ("the machine turn running on the seat"): a Monitor's events wake the
// model in turns no person started.
import { assertEquals } from "./assert.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";
import type { Msg } from "./mcp_harness.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

const SCRIPT = new URL("../fixtures/monitor/script.json", import.meta.url).pathname;

Deno.test("monitors: a Monitor call is a monitor until its stream ends; its events run machine turns", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  command(c, "prompt", { key: lead, text: "[[script:mon]] watch the ticks", attachments: [] });
  const asked = updateOf(
    await c.next((m) => !!updateOf(m, "permission_request"), 60_000),
    "permission_request",
  )!;
  command(c, "respond_permission", {
    key: lead,
    tool_id: asked.tool_id,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  const started = updateOf(
    await c.next((m) => (updateOf(m, "monitors_changed")?.monitors as Msg[])?.length === 1, 60_000),
    "monitors_changed",
  )!;
  const [monitor] = started.monitors as Msg[];
  assertEquals([monitor.description, monitor.command, monitor.url, monitor.timeout_ms], [
    "watch the ticks",
    "for i in 1 2; do echo tick $i; sleep 1; done",
    null,
    60_000,
  ]);
  assertEquals(monitor.tool_use_id, asked.tool_id);
  await inOrder(c, (m) => chatOf(m)?.type === "result");

  // The first tick wakes the model with nobody's words: read the seat while that turn streams.
  await inOrder(c, (m) => chatOf(m)?.subtype === "init");
  await inOrder(c, (m) => chatOf(m)?.type === "stream_event");
  const reader = await forge.ready();
  const snap = await subscribeSeat(reader, lead) as {
    composer: { machine: unknown };
    monitors: Msg[];
  };
  assertEquals(snap.composer.machine, "machine");
  assertEquals(snap.monitors.map((m) => m.task_id), [monitor.task_id]);

  // The stream ends: the monitor is gone, and a person's own turn is no machine turn.
  await c.next((m) => {
    const u = updateOf(m, "monitors_changed");
    return u !== null && (u.monitors as Msg[]).length === 0;
  }, 60_000);
  command(c, "prompt", { key: lead, text: "and now me", attachments: [] });
  await c.next((m) => updateOf(m, "prompt_lifecycle")?.state === "started", 60_000);
  const mine = await subscribeSeat(reader, lead) as { composer: { machine: unknown } };
  assertEquals(mine.composer.machine, null);
});

/** Takes the connection's frames in arrival order until one passes `pred`. */
async function inOrder(c: ForgeClient, pred: (m: Msg) => boolean): Promise<Msg> {
  for (;;) {
    const m = await c.next(() => true, 60_000);
    if (pred(m)) return m;
  }
}
