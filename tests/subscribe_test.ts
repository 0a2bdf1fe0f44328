import { assert, assertEquals, assertMatch } from "./assert.ts";
import { SAMPLE_CONFIG, testServer } from "./harness.ts";
import { commandWire } from "../protocol/mod.ts";
import { command } from "./seat_wire.ts";

const lead = { org: "Acme", project: "proj", label: "lead" };

// spec: What a subject carries > home (the fields this stage serves).
Deno.test("home snapshot carries the fleet from the config", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "home" });
  const snap = await c.next();
  assertEquals([snap.kind, snap.subject], ["snapshot", "home"]);
  const home = snap.data as Record<string, unknown>;
  for (
    const field of [
      "projects",
      "fleet",
      "agents",
      "unseen",
      "accounts",
      "connectors",
      "biometric",
      "vault",
      "dictate",
      "voice",
      "cli_version",
      "forge_version",
      "forge_version_short",
      "boot_id",
      "service_status",
      "fatal_error",
    ]
  ) assert(field in home, `home lacks ${field}`);
  const projects = home.projects as {
    project: { name: string; org: string };
    work: { gate: string };
  }[];
  assertEquals(projects.map((p) => [p.project.org, p.project.name, p.work.gate]), [[
    "Acme",
    "proj",
    "gone",
  ]]);
  const agents = home.agents as { slot: unknown; lifecycle: string }[];
  assertEquals(agents.map((a) => [a.slot, a.lifecycle]), [[lead, "Sleeping"]]);
  assertEquals([home.service_status, home.fatal_error, home.unseen], [null, null, []]);
  const cli = home.cli_version as { latest: unknown };
  assertEquals(cli.latest, null);
});

// spec: Subjects: "A seat nobody has started is an answer rather than a silence".
Deno.test("a declared lead is answered; a seat nobody declared is an error naming it", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: { session: lead } });
  const snap = await c.next();
  assertEquals(snap.kind, "snapshot");
  const data = snap.data as { slot: unknown; header: { session_id: unknown; seq: number } };
  assertEquals([data.slot, data.header.session_id, data.header.seq], [lead, null, 0]);
  const ghost = { org: "Acme", project: "proj", label: "ghost" };
  c.send({ kind: "subscribe", what: { session: ghost } });
  const e = await c.next();
  assertEquals([e.kind, e.what, e.seat], ["error", "subscribe", ghost]);
  assertMatch(String(e.why), /Acme\/proj\/ghost is not a seat/);
});

// A seat no project declares is refused in one sentence by every verb that addresses it, each
// error headed by its verb where the verb's errors are (more, cancel); subscribe's by the seat.
Deno.test("subscribe, more, cancel and list_sessions refuse an unknown seat in one sentence", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  const nope = { org: "Acme", project: "nope", label: "lead" };
  const said = "Acme/nope/lead is not a seat: no project declares it and no session holds it";
  c.send({ kind: "subscribe", what: { session: nope } });
  assertEquals((await c.next((m) => m.kind === "error")).why, said);
  c.send({ kind: "more", conversation: nope, before: null, turns: 20 });
  assertEquals((await c.next((m) => m.kind === "error")).why, `more: ${said}`);
  command(c, "cancel", { key: nope });
  assertEquals((await c.next((m) => m.kind === "error")).why, `cancel: ${said}`);
  // A reply command's refusal is its reply's body.
  c.send({ kind: "command", command: commandWire("list_sessions", { key: nope }), reply_to: 9 });
  const reply = await c.next((m) => m.kind === "reply" && m.reply_to === 9);
  assertEquals(reply.body, `list_sessions: ${said}`);
});

// spec: unsubscribe: counted; two subscribes need two unsubscribes.
Deno.test("subscriptions are counted: one unsubscribe of two keeps the frames coming", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  const emit = (n: number) =>
    t.server.workspace.emit({
      name: "notice",
      fields: { key: lead, severity: "info", text: `n${n}` },
    });
  c.send({ kind: "subscribe", what: { session: lead } });
  c.send({ kind: "subscribe", what: { session: lead } });
  await c.next((m) => m.kind === "snapshot");
  await c.next((m) => m.kind === "snapshot");
  c.send({ kind: "unsubscribe", what: { session: lead } });
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  emit(1);
  const u = await c.next();
  assertEquals(u.kind, "update");
  assertEquals(u.update, { notice: { key: lead, severity: "info", text: "n1" } });
  assertEquals([u.seq, u.span], [0, 1]);
  c.send({ kind: "unsubscribe", what: { session: lead } });
  c.send({ kind: "ping" });
  await c.next((m) => m.kind === "pong");
  emit(2);
  c.send({ kind: "ping" });
  assertEquals(await c.next(), { kind: "pong" }, "no update after the second unsubscribe");
});

// spec: What a client receives > update: seq is per seat; a keyless frame carries none.
Deno.test("frames are numbered on their seat's own counter; keyless frames reach home unnumbered", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  const other = { org: "Acme", project: "proj", label: "w1" };
  t.server.workspace.emit({
    name: "spawning",
    fields: { key: lead, project_name: "proj", cwd: "/", display_name: "x" },
  });
  t.server.workspace.emit({
    name: "spawning",
    fields: { key: other, project_name: "proj", cwd: "/", display_name: "y" },
  });
  t.server.workspace.emit({ name: "releasing", fields: { key: lead } });
  t.server.workspace.emit({
    name: "notice",
    fields: { key: lead, severity: "info", text: "not home news" },
  });
  t.server.workspace.emit({ name: "dictate_availability", fields: null });
  // Boot's CLI version read may announce itself among these; it is not what this test sent.
  const sent = (m: { update?: unknown }) => m.update !== "cli_version_changed";
  const got = [await c.next(sent), await c.next(sent), await c.next(sent), await c.next(sent)];
  assertEquals(got.map((u) => [Object.keys(u.update as object)[0] ?? u.update, u.seq]), [
    ["spawning", 0],
    ["spawning", 0],
    ["releasing", 1],
    ["0", undefined],
  ]);
  assertEquals(got[3].update, "dictate_availability");
});

// spec: Subjects: a subject whose subsystem is off is answered with an error naming it.
Deno.test("usage while its subsystem is off is refused naming the key", async () => {
  await using t = await testServer(SAMPLE_CONFIG + "\n[usage]\nenabled = false\n");
  const c = await t.ready();
  c.send({ kind: "subscribe", what: "usage" });
  const e = await c.next();
  assertEquals([e.kind, e.what], ["error", "subscribe"]);
  assertEquals(e.why, "usage: the usage subsystem is turned off by usage.enabled in forge.toml");
});

// An older client's unknown field is ignored (serde's default); a wrong type is not.
Deno.test("subscribe with an unknown field is answered; a wrong type is refused by name", async () => {
  await using t = await testServer(SAMPLE_CONFIG);
  const c = await t.ready();
  c.sendUntyped({ kind: "subscribe", what: "home", browser: false });
  // The subscription opens before its snapshot is read, so boot's CLI version news may lead it.
  const snap = await c.next((m) => m.kind === "snapshot");
  assertEquals([snap.kind, snap.subject], ["snapshot", "home"]);
  c.sendUntyped({ kind: "subscribe", what: "home", review: "yes", browser: false });
  // Boot's read of the installed CLI's version can land first (cli_version_changed), under load.
  const err = await c.next((m) => m.kind === "error");
  assertEquals([err.kind, err.what], ["error", "subscribe"]);
  assertMatch(String(err.why), /review/);
});
