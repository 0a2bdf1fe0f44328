// Socket tier: set_mode on a live seat running the real claude CLI against the fake API. A mode
// the CLI will not take (bypassPermissions on a session not launched to allow it) comes back as
// set_mode_failed naming the mode, with the CLI's own reason and none of the control request's
// plumbing (its subtype, its request id). spec: set_mode (failure -> set_mode_failed).
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("set_mode: a mode the CLI refuses is told in forge's words, naming it", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead);
  command(c, "set_mode", { key: lead, mode: "bypassPermissions" });
  const refused = updateOf(
    await c.next((m: Msg) => updateOf(m, "set_mode_failed") !== null, 30_000),
    "set_mode_failed",
  )!;
  assertEquals(refused.mode, "bypassPermissions");
  const message = String(refused.message);
  assertMatch(message, /^switching to mode `bypassPermissions` failed: the CLI answered "\S/);
  assert(!/control request|req_\d/.test(message), message);
  await forge.stop();
});
