// Spawned tier: a home subscriber that watches no seat still learns when a seat's turn begins and
// ends. The CLI's `system/session_state_changed` frames are fleet news (spec: What a client
// receives > home's first arm); forge asks the CLI for them at launch, and a home read after each
// one states the seat's lifecycle as Running, then Idle.
import { assertEquals } from "./assert.ts";
import { chatOf, command, homeLifecycle, seatWorld, subscribeSeat } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

const stateChange = (state: string) => (m: Msg) =>
  chatOf(m)?.type === "system" && chatOf(m)?.subtype === "session_state_changed" &&
  chatOf(m)?.state === state;

Deno.test("home hears a turn begin and end through the CLI's session state frames", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const c = await forge.ready();
  const lead = world.lead("alpha");
  await subscribeSeat(c, lead);
  c.send({ kind: "unsubscribe", what: { session: lead } });
  assertEquals(await homeLifecycle(c, "alpha"), "Idle");

  // Home alone: no seat subscription, so every chat frame below reached it as fleet news.
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  command(c, "prompt", { key: lead, text: "[[script:slow]] count", attachments: [] });
  await c.next(stateChange("running"), 60_000);
  assertEquals(await homeLifecycle(c, "alpha"), "Running");

  await c.next(stateChange("idle"), 60_000);
  assertEquals(await homeLifecycle(c, "alpha"), "Idle");
});
