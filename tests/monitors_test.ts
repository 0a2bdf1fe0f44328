// Spawned tier, the real CLI's Monitor tool on the fake API (fixtures/monitor/script.json).
// spec: session > monitors ("the watches the session has running", pushed as monitors_changed)
// and composer > machine ("the machine turn running on the seat"): a Monitor's events wake the
// model in turns no person started.
import { assert, assertEquals } from "./assert.ts";
import type { Slot, UpdateFields } from "../protocol/mod.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";
import type { Msg } from "./mcp_harness.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

const SCRIPT = new URL("../fixtures/monitor/script.json", import.meta.url).pathname;

Deno.test("monitors: a Monitor call is a monitor until its stream ends; its events run machine turns", async () => {
  // The watch runs until the test makes the stop file: its end is the test's to say.
  const script = (dir: string) =>
    JSON.parse(Deno.readTextFileSync(SCRIPT).replaceAll("@STOP@", `${dir}/monitor.stop`));
  await using world = await seatWorld([{ name: "alpha" }], script);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  command(c, "prompt", { key: lead, text: "[[script:mon]] watch the ticks", attachments: [] });
  const asked = await permissionAsk(c);
  allow(c, lead, asked.tool_id);
  const started = updateOf(
    await c.next((m) => (updateOf(m, "monitors_changed")?.monitors as Msg[])?.length === 1, 60_000),
    "monitors_changed",
  )!;
  const [monitor] = started.monitors as Msg[];
  assertEquals([monitor.description, monitor.command, monitor.url, monitor.timeout_ms], [
    "watch the ticks",
    `for i in 1; do echo tick $i; done; while [ ! -e ${world.dir}/monitor.stop ]; do sleep 0.1; done`,
    null,
    60_000,
  ]);
  assertEquals(monitor.tool_use_id, asked.tool_id);

  // The tick wakes the model with nobody's words; that turn holds on its own permission ask, so
  // the seat is read while the CLI's own turn runs and the watch still lives.
  const woken = await permissionAsk(c);
  assert(woken.tool_id !== asked.tool_id, "the machine turn's own ask");
  const reader = await forge.ready();
  const snap = await subscribeSeat(reader, lead) as {
    composer: { machine: unknown };
    monitors: Msg[];
  };
  assertEquals(snap.composer.machine, "machine");
  assertEquals(snap.monitors.map((m) => m.task_id), [monitor.task_id]);
  allow(c, lead, woken.tool_id);

  // The stream ends: the monitor is gone, and a person's own turn is no machine turn.
  await Deno.writeTextFile(`${world.dir}/monitor.stop`, "");
  await c.next((m) => {
    const u = updateOf(m, "monitors_changed");
    return u !== null && (u.monitors as Msg[]).length === 0;
  }, 60_000);
  // The person's turn holds on its own ask too (the CLI may first run a turn of its own for the
  // watch's end): read while it waits, it is no machine turn.
  command(c, "prompt", { key: lead, text: "[[script:mine]] and now me", attachments: [] });
  let ask = await permissionAsk(c);
  while (
    (ask.request as { tool_call: { title: string } }).tool_call.title !== "Bash: touch mine.txt"
  ) {
    ask = await permissionAsk(c);
  }
  const mine = await subscribeSeat(reader, lead) as { composer: { machine: unknown } };
  assertEquals(mine.composer.machine, null);
  allow(c, lead, ask.tool_id);
});

/** The next permission_request on the connection. */
async function permissionAsk(c: ForgeClient): Promise<UpdateFields<"permission_request">> {
  return typedUpdateOf(
    await c.next((m) => !!updateOf(m, "permission_request"), 60_000),
    "permission_request",
  )!;
}

function allow(c: ForgeClient, key: Slot, toolId: string): void {
  command(c, "respond_permission", {
    key,
    tool_id: toolId,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
}
