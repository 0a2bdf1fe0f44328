// Socket tier: how a seat fails and what it carries when it does. spec: home > agents (lifecycle,
// reason); the original's connection_failed {key, message, fatal}: a missing binary, a
// failed start or an exit mid-turn leave a Failed seat with the exit and the stderr tail.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;
const has = (name: string) => (m: Msg) => updateOf(m, name) !== null;

async function agent(c: ForgeClient, project: string): Promise<Msg> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  return home.agents.find((a) => (a.slot as Msg).project === project)!;
}

Deno.test("a missing claude binary fails the seat by name; the server runs on", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const config = await Deno.readTextFile(world.configPath);
  await Deno.writeTextFile(
    world.configPath,
    config.replace("[claude]\n", '[claude]\npath = "/nonexistent/bin/claude"\n'),
  );
  const forge = await world.startInProcess();
  const c = await forge.ready();
  // auto_start failed at boot, before anyone listened: the home row carries it.
  const row = await agent(c, "alpha");
  assertEquals(row.lifecycle, "Failed");
  assertMatch(String(row.reason), /cannot start \/nonexistent\/bin\/claude/);
  // Waking it again fails again, and the home hears it.
  command(c, "spawn_project", { project_name: "alpha", launch_settings: {} });
  const failed = updateOf(await c.next(has("connection_failed"), 10_000), "connection_failed")!;
  assertEquals([failed.key, failed.fatal], [world.lead("alpha"), true]);
  assertMatch(String(failed.message), /^claude could not be started for Acme\/alpha\/lead: /);
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  await forge.stop();
});

Deno.test("a start the CLI refuses fails with its exit and stderr; stdin takes any text", async () => {
  await using world = await seatWorld([{ name: "alpha" }, { name: "beta" }]);
  const forge = await world.startInProcess();
  const c = await forge.ready();
  const alpha = world.lead("alpha");
  const beta = world.lead("beta");
  await subscribeSeat(c, alpha, true);
  await subscribeSeat(c, beta, true);

  // No transcript holds this id: the CLI exits 1 before it answers initialize.
  const unknown = crypto.randomUUID();
  command(c, "resume_session", {
    key: beta,
    session_id: unknown,
    cwd: world.projectDir("beta"),
    launch_settings: {},
  });
  const failed = updateOf(
    await c.next(
      (m) =>
        has("connection_failed")(m) &&
        (updateOf(m, "connection_failed")!.key as Msg).project === "beta",
      60_000,
    ),
    "connection_failed",
  )!;
  assertMatch(String(failed.message), /^claude exited \(code 1\) before it was ready; stderr: .+/);
  assertMatch(String(failed.message), new RegExp(unknown));
  c.send({ kind: "subscribe", what: { session: beta } });
  const snap = (await c.next((m) => m.kind === "snapshot")).data as Msg;
  assertEquals((snap.header as Msg).session_id, null, "a failed seat names no occupant");
  const failure = snap.failure as Msg;
  assertEquals([failure.code, failure.signal], [1, null]);
  assert(String(failure.stderr_tail).includes(unknown));

  // One malformed stdin line kills the CLI; a prompt's text can never make one.
  const text = 'line one\nline two\u2028and \u2029 "quoted" \\ back';
  command(c, "prompt", { key: alpha, text, attachments: [] });
  const result = chatOf(
    await c.next((m) =>
      chatOf(m)?.type === "result" &&
      (updateOf(m, "chat_appended")!.key as Msg).project === "alpha", 30_000),
  )!;
  assertEquals([result.subtype, result.result], ["success", `Echo: ${text}`]);
  await forge.stop();
});
