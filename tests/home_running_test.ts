// Spawned tier: a home subscriber that watches no seat still learns when a seat's turn begins and
// ends. The CLI's `system/session_state_changed` frames are fleet news (spec: What a client
// receives > home's first arm); forge asks the CLI for them at launch, and a home read after each
// one states the seat's lifecycle as Running, then Idle.
import { assertEquals } from "./assert.ts";
import { chatOf, command, seatWorld, subscribeSeat } from "./seats_harness.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

type Msg = Record<string, unknown>;

/** The lead's lifecycle as a fresh home read states it. */
async function leadLifecycle(c: ForgeClient): Promise<unknown> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  c.send({ kind: "unsubscribe", what: "home" });
  return home.agents.find((a) => (a.slot as Msg).project === "alpha")?.lifecycle;
}

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
  assertEquals(await leadLifecycle(c), "Idle");

  // Home alone: no seat subscription, so every chat frame below reached it as fleet news.
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  command(c, "prompt", { key: lead, text: "[[script:slow]] count", attachments: [] });
  await c.next(stateChange("running"), 60_000);
  assertEquals(await leadLifecycle(c), "Running");

  await c.next(stateChange("idle"), 60_000);
  assertEquals(await leadLifecycle(c), "Idle");
});
