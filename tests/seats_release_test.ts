// Socket tier: a seat closed while its CLI is still starting. The real claude CLI runs against
// the fake API behind a launcher that stops itself before it execs the CLI, so the test holds
// the `initialize` handshake open for as long as it needs: close_session (or the server's stop)
// begins while nothing has answered, and only then does the CLI run - reading `initialize` and
// the end of its input together, answering one and then exiting. spec: What a client sends >
// close_session; the session subject's processes ("a session ending clears it").
import { assert, assertEquals } from "./assert.ts";
import {
  alive,
  chatOf,
  command,
  cwdOf,
  type SeatWorld,
  seatWorld,
  subscribeSeat,
  until,
  updateOf,
} from "./seats_harness.ts";
import { type HeldClaude, heldClaude } from "./seats_held_cli.ts";
import type { Slot } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

type Msg = Record<string, unknown>;
const has = (name: string) => (m: Msg) => updateOf(m, name) !== null;
/** The updates that tell a seat's occupant's life. */
const LIFE = new Set([
  "spawning",
  "connected",
  "session_replaced",
  "connection_failed",
  "releasing",
  "released",
]);

/** What `c` hears from now on: each update's name, and `error` for a refusal. */
function heard(c: ForgeClient): string[] {
  const seen: string[] = [];
  c.onFrame((f) => {
    if (f.type !== "json") return;
    if (f.data.kind === "error") seen.push("error");
    const u = f.data.update;
    if (u && typeof u === "object") seen.push(...Object.keys(u));
  });
  return seen;
}

/** Subscribes `c` to the seat and starts it on the held CLI: the CLI's pid, once forge has
 * asked it `initialize` and nothing can answer yet. */
async function startHeld(
  c: ForgeClient,
  lead: Slot,
  world: SeatWorld,
  held: HeldClaude,
  records: Msg[],
): Promise<number> {
  c.send({ kind: "subscribe", what: { session: lead } });
  await c.next((m) => m.kind === "snapshot");
  command(c, "new_session", {
    key: lead,
    cwd: world.projectDir(lead.project),
    launch_settings: {},
  });
  await c.next(has("spawning"), 30_000);
  return await held.asked(records);
}

Deno.test("close_session while the CLI answers initialize: the seat sleeps, never live", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
  const held = await heldClaude(world);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const seen = heard(c);
  // A page holding home alone: the end of the release is fleet news.
  const home = await forge.ready();
  home.send({ kind: "subscribe", what: "home" });
  await home.next((m) => m.kind === "snapshot");
  const pid = await startHeld(c, lead, world, held, forge.log.records);

  command(c, "close_session", { session_key: lead });
  await c.next(has("releasing"), 10_000);
  held.resume(pid);
  await c.next(has("released"), 30_000);
  assertEquals(seen.filter((n) => LIFE.has(n)), ["spawning", "releasing", "released"]);
  assertEquals(seen.filter((n) => n === "error"), []);
  assert(!alive(pid), "the CLI was reaped before the seat said released");
  await home.next(has("released"), 10_000);
  home.send({ kind: "subscribe", what: "home" });
  const read = (await home.next((m) => m.kind === "snapshot")).data as { agents: Msg[] };
  assertEquals(read.agents.find((a) => (a.slot as Msg).project === "alpha")!.lifecycle, "Sleeping");
  assert(!forge.log.records.some((r) => r.event === "seat_failed"), "no seat failed");
  await forge.stop();
});

Deno.test("the server stops while a CLI answers initialize: no seat fails", async () => {
  await using world = await seatWorld([{ name: "alpha", autoStart: false }]);
  const held = await heldClaude(world);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  const pid = await startHeld(c, lead, world, held, forge.log.records);

  const stopping = forge.stop();
  await until(
    () => forge.log.records.some((r: Msg) => r.event === "seat_shutdown" && r.pid === pid),
    30_000,
    "the seat's shutdown to begin",
  );
  held.resume(pid);
  await stopping;
  assert(!alive(pid), "the CLI was reaped");
  const failed = forge.log.records.filter((r) => r.event === "seat_failed");
  assertEquals(failed, []);
});

Deno.test("close_session while a new_session closes the old occupant: nothing new starts", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead);
  const spawned = () => forge.log.records.filter((r) => r.event === "seat_spawned") as Msg[];
  const old = spawned()[0].pid as number;
  const seen = heard(c);
  // The old CLI, stopped, cannot end on its input's end: the start replacing it waits on its
  // close (forge's ladder ends it with SIGKILL) with nothing spawned, and the close lands there.
  Deno.kill(old, "SIGSTOP");
  command(c, "new_session", { key: lead, cwd: world.projectDir("alpha"), launch_settings: {} });
  command(c, "close_session", { session_key: lead });
  await c.next(has("releasing"), 10_000);
  await c.next(has("released"), 30_000);
  assert(!alive(old), "the old CLI was reaped before the seat said released");
  assertEquals(seen.filter((n) => LIFE.has(n)), ["releasing", "released"]);
  assertEquals(spawned().length, 1, "the abandoned start spawned nothing");
  c.send({ kind: "subscribe", what: "home" });
  const read = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  assertEquals(read.agents.find((a) => (a.slot as Msg).project === "alpha")!.lifecycle, "Sleeping");
  assertEquals(seen.filter((n) => n === "error"), [], "close_session was not refused");
  await forge.stop();
});

Deno.test("a close that has to kill the CLI still ends its background tasks", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead);
  const cli = (forge.log.records.find((r) => r.event === "seat_spawned") as Msg).pid as number;
  command(c, "prompt", { key: lead, text: "[[script:bg]] start it", attachments: [] });
  await c.next(
    (m) => (updateOf(m, "background_tasks_changed")?.tasks as Msg[])?.length > 0,
    30_000,
  );
  await c.next((m) => chatOf(m)?.type === "result", 30_000);
  const seen = heard(c);
  try {
    // Stopped, the CLI cannot end its own tasks on its input's end: forge's ladder kills it.
    Deno.kill(cli, "SIGSTOP");
    command(c, "close_session", { session_key: lead });
    await c.next(has("released"), 30_000);
    const ended = seen.indexOf("background_tasks_changed");
    assert(ended > seen.indexOf("releasing") && ended < seen.indexOf("released"), seen.join());
    c.send({ kind: "subscribe", what: { session: lead } });
    const snap = (await c.next((m) => m.kind === "snapshot")).data as Msg;
    assertEquals([snap.background_tasks, snap.monitors, snap.processes], [[], [], null]);
    c.send({ kind: "subscribe", what: "home" });
    const read = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
      agents: Msg[];
    };
    assertEquals(read.agents[0].has_background_work, false);
  } finally {
    // The killed CLI's backgrounded job outlives it: ended here, not left running.
    for (const pid of pidsUnder(world.dir)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* already gone */ }
    }
  }
  await forge.stop();
});

/** Processes running in a directory under `dir` (a test's leftovers). */
function pidsUnder(dir: string): number[] {
  return [...Deno.readDirSync("/proc")].filter((e) => /^\d+$/.test(e.name)).map((e) =>
    Number(e.name)
  ).filter((pid) => pid !== Deno.pid && cwdOf(pid).startsWith(`${dir}/`));
}
