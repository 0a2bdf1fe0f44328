// Spawned tier: forge in-process on a cron clock this test moves, its lead the real claude CLI on
// the fake Messages API (fixtures/board/script.json). A cron fire handed to a lead busy mid-turn
// waits in its CLI's queue, in memory; forge keeps it `waiting` in the fired file until the
// lead's prompt_lifecycle says it started (spec: prompt_lifecycle; server/board/cron_waiting.ts).
// Here that queue is lost twice - two restarts, each before the lead started the fire - and the
// model still hears the fire's prompt exactly once, when the lead is let go.
import type { Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { MAX_SLEEP_MS } from "../server/board/cron_timer.ts";
import { assertEquals } from "./assert.ts";
import { crashLead, requestsWith, untilRequested } from "./board_spawned_support.ts";
import { ManualClock } from "./manual_clock.ts";
import { promptTurn, toolResultsOf } from "./mcp_harness.ts";
import {
  command,
  seatWorld,
  subscribeSeat,
  typedUpdateOf,
  until,
  updateOf,
} from "./seats_harness.ts";

const SCRIPT = new URL("../fixtures/board/script.json", import.meta.url).pathname;
const FIRE = "One-shot: say the word.";
type Fired = { uuid: string; waiting?: unknown };

/** The lead, held mid-turn on a settings__set ask nobody answers yet; answers the ask's id. */
async function holdLead(c: ForgeClient, lead: Slot): Promise<string> {
  command(c, "prompt", { key: lead, text: "[[script:hold]] hold on", attachments: [] });
  const ask = typedUpdateOf(
    await c.next((m) => updateOf(m, "settings_write_pending") !== null, 60_000),
    "settings_write_pending",
  )!;
  return ask.id;
}

/** Waits until the lead's CLI has the fire `uuid` in its queue, not started. */
async function untilQueued(c: ForgeClient, uuid: string) {
  await c.next((m) => {
    const u = updateOf(m, "prompt_lifecycle");
    return u?.uuid === uuid && u.state === "queued";
  }, 60_000);
}

Deno.test("cron: a fire lost from a busy lead's queue across two restarts is heard once", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const lead = world.lead("alpha");
  const firedPath = `${world.dir}/forge/state/board/cron_fired.json`;
  const waitingOf = async (uuid: string) => {
    const file = JSON.parse(await Deno.readTextFile(firedPath)) as { fired: Fired[] };
    return file.fired.find((f) => f.uuid === uuid)?.waiting !== undefined;
  };
  const clock = new ManualClock(Date.now());

  // First run: a one-shot falls due while the lead is held mid-turn; the fire waits in its CLI's
  // queue, and the CLI dies with it there (a stop would let the CLI drain its queue).
  let forge = await world.startInProcess({ cronClock: clock });
  let c = await forge.ready();
  await subscribeSeat(c, lead, true);
  const once = JSON.parse(
    toolResultsOf(await promptTurn(c, lead, "[[script:once]] and once"))[0].text,
  );
  await holdLead(c, lead);
  clock.advanceTo(Date.parse(once.next_fire));
  const fired = typedUpdateOf(
    await c.next((m) => updateOf(m, "cron_prompt_appended")?.cron_id === once.id, 60_000),
    "cron_prompt_appended",
  )!;
  await untilQueued(c, fired.uuid);
  await crashLead(world, c);
  await forge.stop();
  assertEquals(await waitingOf(fired.uuid), true, "waiting after the first run");

  /**
   * A run whose lead is held mid-turn before the boot hands the fire over. The boot hands it over
   * in its first tick, before any client can reach the lead, so that tick is made to find the
   * fired file unreadable: it hands nothing over from a file it cannot read and looks again a
   * chunk later (server/board/cron.ts, #arm). Once the person holds the lead, the file is put back
   * as it was and the clock moved a chunk: that tick takes the mended file in and hands the fire
   * to the busy lead, whose CLI queues it.
   */
  const runWithLeadBusy = async () => {
    const kept = await Deno.readTextFile(firedPath);
    await Deno.writeTextFile(firedPath, "{ the fired file, unreadable for this boot");
    const run = await world.startInProcess({ cronClock: clock });
    const client = await run.ready();
    await subscribeSeat(client, lead, true);
    const ask = await holdLead(client, lead);
    // The boot's tick found the file damaged and armed its look a chunk later.
    await until(() => clock.pending > 0, 30_000, "the boot's tick to look again later");
    await Deno.writeTextFile(firedPath, kept);
    clock.advanceBy(MAX_SLEEP_MS);
    await client.next((m) => updateOf(m, "cron_prompt_appended")?.uuid === fired.uuid, 60_000);
    await untilQueued(client, fired.uuid);
    return { run, client, ask };
  };

  // Second run: handed over again to the busy lead, and lost again the same way.
  ({ run: forge, client: c } = await runWithLeadBusy());
  assertEquals((await requestsWith(world, FIRE)).length, 0, "not heard in the second run");
  await crashLead(world, c);
  await forge.stop();
  assertEquals(await waitingOf(fired.uuid), true, "waiting after the second run");

  // Third run: handed over to the busy lead once more; the person lets the lead go (the ask is
  // declined, its turn ends) and the CLI starts the fire from its queue.
  const third = await runWithLeadBusy();
  forge = third.run;
  c = third.client;
  assertEquals((await requestsWith(world, FIRE)).length, 0, "not heard before the lead is let go");
  command(c, "respond_settings_write", { key: lead, id: third.ask, approved: false });
  await c.next((m) => {
    const u = updateOf(m, "prompt_lifecycle");
    return u?.uuid === fired.uuid && u.state === "started";
  }, 60_000);
  await untilRequested(world, FIRE);
  // The fire started: no longer waiting, so no later boot hands it over again.
  await until(async () => !(await waitingOf(fired.uuid)), 30_000, "the fire to stop waiting");
  await c.next((m) => {
    const u = updateOf(m, "prompt_lifecycle");
    return u?.uuid === fired.uuid && u.state === "completed";
  }, 60_000);
  assertEquals((await requestsWith(world, FIRE)).length, 1, "the fire's prompt, heard once");
  await forge.stop();
});
