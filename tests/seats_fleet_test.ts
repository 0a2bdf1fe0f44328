// Spawned tier: three seats run the real CLI at once; one CLI is killed with SIGKILL mid-turn and
// its seat fails with the exit and its reason while the others and the server run on.
// spec: home > agents (lifecycle, reason); the original's connection_failed.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  alive,
  chatOf,
  childrenOf,
  command,
  commandOf,
  cwdOf,
  seatWorld,
  subscribeSeat,
  updateOf,
} from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("three seats stream at once; kill -9 of one CLI fails that seat alone", async () => {
  const names = ["alpha", "beta", "gamma"];
  await using world = await seatWorld(names.map((name) => ({ name })));
  const forge = await world.startForge();
  const c = await forge.ready();
  const seats = names.map((n) => world.lead(n));
  const of = (m: Msg) => {
    const u = m.update as Record<string, { key?: { project: string } }> | undefined;
    return u ? Object.values(u)[0]?.key?.project : undefined;
  };
  const firstIds: string[] = [];
  for (const seat of seats) {
    const snap = await subscribeSeat(c, seat, true);
    firstIds.push((snap.header as { session_id: string }).session_id);
  }
  for (const seat of seats) {
    command(c, "prompt", { key: seat, text: "[[script:slow]] count", attachments: [] });
  }
  // Each seat streams before any of them has finished: they run at once.
  const delta = (m: Msg) =>
    chatOf(m)?.type === "stream_event" &&
    (chatOf(m)!.event as Msg).type === "content_block_delta";
  for (const name of names) await c.next((m) => of(m) === name && delta(m), 60_000);
  assert(!c.frames.some((f) => f.type === "json" && chatOf(f.data)?.type === "result"));

  // The CLI forge runs for beta: a child of the server whose working directory is beta's tree.
  const pid = childrenOf(forge.serverPid()).find((p) =>
    cwdOf(p) === world.projectDir("beta") && commandOf(p).includes("claude")
  )!;
  assert(pid, "beta's CLI is a child of the server");
  Deno.kill(pid, "SIGKILL");

  const failed = updateOf(
    await c.next((m) => of(m) === "beta" && !!updateOf(m, "connection_failed"), 10_000),
    "connection_failed",
  )!;
  assertEquals(failed.fatal, true);
  assertMatch(String(failed.message), /claude exited \(code \d+, signal SIGKILL\) mid-turn/);
  for (const name of ["alpha", "gamma"]) {
    const result = chatOf(
      await c.next((m) => of(m) === name && chatOf(m)?.type === "result", 60_000),
    )!;
    assertEquals([result.subtype, result.is_error], ["success", false]);
  }
  assert(!alive(pid), "the killed CLI was reaped, not left a zombie");

  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  const rows = Object.fromEntries(home.agents.map((a) => [(a.slot as Msg).project, a]));
  assertEquals(rows.beta.lifecycle, "Failed");
  assertMatch(String(rows.beta.reason), /signal SIGKILL/);
  assertEquals([rows.alpha.lifecycle, rows.gamma.lifecycle], ["Idle", "Idle"]);

  // A command for the failed seat is refused naming it; the server itself answers on.
  command(c, "prompt", { key: seats[1], text: "hello?", attachments: [] });
  const refused = await c.next((m) => m.kind === "error");
  assertEquals([refused.what, refused.seat], ["dispatch", seats[1]]);
  assertMatch(String(refused.why), /Acme\/beta\/lead: the seat has no session \(it failed/);
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");

  // Waking the project again puts a fresh occupant on the seat.
  command(c, "spawn_project", { project_name: "beta", launch_settings: {} });
  const back = updateOf(
    await c.next((m) =>
      of(m) === "beta" && updateOf(m, "connected") !== null &&
      updateOf(m, "connected")!.session_id !== firstIds[1], 60_000),
    "connected",
  )!;
  assert(typeof back.session_id === "string", "a fresh occupant, under a new session id");
  assertEquals((await forge.stop()).code, 0);
});
