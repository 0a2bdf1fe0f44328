// Spawned tier: forge runs as a process with pushes on through a fake ntfy server and a fake
// Gotify server, each its own process; its seats run the real claude CLI against the fake
// Messages API (fixtures/seats/script.json), scripted into a Bash call that asks permission.
// docs/notify.md: a parked ask becomes one push per channel naming the seat, the command and a
// click URL ending in the seat's path; nothing while an answering connection shows the seat,
// the waiting ask pushed when it leaves; notify_test answers ok, and failing in words when the
// server is down; a reload that turns a channel off is home's news; a hung server holds up no
// seat, and its push lands once it answers.
import type { PermissionOutcome } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask, until } from "./harness.ts";
import {
  CLIENT_URL,
  homeNotify,
  nextAsk,
  nextChannelState,
  notifyWorld,
  TOPIC,
} from "./notify_harness.ts";
import { untilResult } from "./mcp_harness.ts";
import { command, subscribeSeat } from "./seats_harness.ts";

const ALLOW: PermissionOutcome = {
  outcome: "selected",
  option_id: "allow_once",
  action: { kind: "allow" },
};

Deno.test("a parked ask is one push on ntfy and on Gotify; none while a viewer shows the seat, one when it leaves; notify_test", async () => {
  await using w = await notifyWorld();
  const forge = await w.world.startForge();
  const alpha = w.world.lead("alpha"), beta = w.world.lead("beta");
  const h = await forge.ready();
  assertEquals(await homeNotify(h), {
    enabled: true,
    channels: {
      ntfy: { state: "ok", why: null },
      gotify: { state: "ok", why: null },
      webpush: { state: "off", why: "[notify.webpush] enabled is false" },
    },
    vapid_public_key: null,
    subscriptions: 0,
  });
  // An answering client holding alpha's stream, not showing it: nobody is in front of alpha.
  const c = await forge.ready();
  await subscribeSeat(c, alpha, true);
  command(c, "prompt", { key: alpha, text: "[[script:bash]] make a file", attachments: [] });
  const asked = await nextAsk(c, alpha);
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 0, 30_000, "the ntfy push");
  const [n] = await w.ntfy.messages(TOPIC);
  assertEquals([n.title, n.message, n.priority], [
    "alpha/lead needs you",
    "Bash: touch allowed.txt",
    4,
  ]);
  assert(n.tags?.includes("bell"), JSON.stringify(n.tags));
  assert(n.click!.endsWith("#/seat/Acme/alpha/lead") && n.click!.startsWith(CLIENT_URL), n.click);
  await until(async () => (await w.gotifyMessages()).length > 0, 30_000, "the Gotify push");
  const [g] = await w.gotifyMessages();
  assertEquals([g.title, g.message, g.priority], [
    "alpha/lead needs you",
    "Bash: touch allowed.txt",
    8,
  ]);
  const click = (g.extras as Record<string, Record<string, Record<string, string>>>)[
    "client::notification"
  ].click.url;
  assert(click.endsWith("#/seat/Acme/alpha/lead"), click);
  command(c, "respond_permission", { key: alpha, tool_id: asked.tool_id, outcome: ALLOW });
  await untilResult(c);

  // A viewer answering and showing beta: beta's ask is held while alpha's next ask is pushed.
  const v = await forge.ready();
  await subscribeSeat(v, beta, true);
  v.send({ kind: "showing", seat: beta });
  command(v, "prompt", { key: beta, text: "[[script:bash]] make a file", attachments: [] });
  const betaAsk = await nextAsk(v, beta);
  command(c, "prompt", { key: alpha, text: "[[script:bash]] again", attachments: [] });
  const again = await nextAsk(c, alpha);
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 1, 30_000, "alpha's 2nd push");
  // beta asked first: had it been pushed it would have left first.
  assertEquals((await w.ntfy.messages(TOPIC)).map((m) => m.title), [
    "alpha/lead needs you",
    "alpha/lead needs you",
  ]);
  v.send({ kind: "showing", seat: null });
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 2, 30_000, "beta's push");
  const third = (await w.ntfy.messages(TOPIC))[2];
  assertEquals([third.title, third.message], ["beta/lead needs you", "Bash: touch allowed.txt"]);
  assert(third.click!.endsWith("#/seat/Acme/beta/lead"));
  command(v, "respond_permission", { key: beta, tool_id: betaAsk.tool_id, outcome: ALLOW });
  command(c, "respond_permission", { key: alpha, tool_id: again.tool_id, outcome: ALLOW });
  await untilResult(c);
  await until(async () => (await w.gotifyMessages()).length >= 3, 30_000, "Gotify's third");
  assertEquals((await w.gotifyMessages()).map((m) => m.title), [
    "alpha/lead needs you",
    "alpha/lead needs you",
    "beta/lead needs you",
  ]);

  // notify_test: ok while the server answers; down, failing in words, and home hears of it.
  assertEquals(await ask(c, "notify_test", { channel: "ntfy" }), { ok: true, why: null });
  assertEquals((await w.ntfy.messages(TOPIC)).at(-1)!.title, "forge: a test push");
  await w.ntfy.stop();
  const down = await ask(c, "notify_test", { channel: "ntfy" });
  assertEquals(down.ok, false);
  assertMatch(String(down.why), /^ntfy at 127\.0\.0\.1:\d+: the connection was refused/);
  assertEquals(await nextChannelState(h, "ntfy", "failing"), { state: "failing", why: down.why });
  // A reload that takes the topic away (a live key) turns ntfy off, and home hears of it.
  const toml = await Deno.readTextFile(w.world.configPath);
  await Deno.writeTextFile(w.world.configPath, toml.replace(`topic = "${TOPIC}"\n`, ""));
  assertEquals(await nextChannelState(h, "ntfy", "off"), {
    state: "off",
    why: "no [notify.ntfy] topic in forge.toml",
  });
  const log = await Deno.readTextFile(`${w.world.dir}/forge/forge.log`);
  assert(!log.includes(w.ntfy.token!) && !log.includes(TOPIC), "no token or topic in the log");
});

Deno.test("with the ntfy server hung, seats run and frames flow; the push lands once it answers, and a down server's on retry", async () => {
  await using w = await notifyWorld();
  const forge = await w.world.startForge();
  const alpha = w.world.lead("alpha"), beta = w.world.lead("beta");
  const a = await forge.ready(), b = await forge.ready();
  await subscribeSeat(a, alpha, true);
  await subscribeSeat(b, beta, true);
  await w.ntfy.hang(true);
  command(a, "prompt", { key: alpha, text: "[[script:bash]] make a file", attachments: [] });
  const asked = await nextAsk(a, alpha);
  await until(async () => (await w.ntfy.held()) > 0, 30_000, "the push held by the hung server");
  // The hung send holds up nothing: another seat's whole turn runs, and alpha's ask is answered.
  command(b, "prompt", { key: beta, text: "[[script:hello]] say hello", attachments: [] });
  const turn = await untilResult(b);
  assert(turn.length > 3, "beta's turn streamed");
  command(a, "respond_permission", { key: alpha, tool_id: asked.tool_id, outcome: ALLOW });
  await untilResult(a);
  await w.ntfy.hang(false);
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 0, 30_000, "the released push");
  assertEquals((await w.ntfy.messages(TOPIC))[0].title, "alpha/lead needs you");

  // Down: the send fails, home says so, and the retry lands once the server is back. A fresh
  // home reader hears only what moves from here on.
  const h2 = await forge.ready();
  await homeNotify(h2);
  await w.ntfy.stop();
  command(b, "prompt", { key: beta, text: "[[script:bash]] make a file", attachments: [] });
  const betaAsk = await nextAsk(b, beta);
  const failing = await nextChannelState(h2, "ntfy", "failing", /the connection was refused/);
  assertMatch(String(failing.why), /^ntfy at 127\.0\.0\.1:\d+: the connection was refused/);
  await w.ntfy.restart();
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 0, 60_000, "the retried push");
  assertEquals((await w.ntfy.messages(TOPIC))[0].title, "beta/lead needs you");
  assertEquals(await nextChannelState(h2, "ntfy", "ok"), { state: "ok", why: null });
  command(b, "respond_permission", { key: beta, tool_id: betaAsk.tool_id, outcome: ALLOW });
  await untilResult(b);
});

Deno.test("an ask held while its viewer shows the seat is pushed when that viewer's connection closes", async () => {
  await using w = await notifyWorld();
  const forge = await w.world.startForge();
  const alpha = w.world.lead("alpha"), beta = w.world.lead("beta");
  // v answers and shows alpha; c answers too and shows nothing, and stays.
  const v = await forge.ready(), c = await forge.ready();
  await subscribeSeat(v, alpha, true);
  v.send({ kind: "showing", seat: alpha });
  await subscribeSeat(c, alpha, true);
  await subscribeSeat(c, beta, true);
  command(v, "prompt", { key: alpha, text: "[[script:bash]] make a file", attachments: [] });
  const held = await nextAsk(c, alpha);
  // beta, shown by nobody, asks after alpha: had alpha's been pushed it would have left first.
  command(c, "prompt", { key: beta, text: "[[script:bash]] make a file", attachments: [] });
  const betaAsk = await nextAsk(c, beta);
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 0, 30_000, "beta's push");
  assertEquals((await w.ntfy.messages(TOPIC)).map((m) => m.title), ["beta/lead needs you"]);
  await v.close(); // the last viewer of alpha goes: its connection ends
  await until(async () => (await w.ntfy.messages(TOPIC)).length > 1, 30_000, "alpha's push");
  const pushed = (await w.ntfy.messages(TOPIC))[1];
  assertEquals([pushed.title, pushed.message], ["alpha/lead needs you", "Bash: touch allowed.txt"]);
  command(c, "respond_permission", { key: alpha, tool_id: held.tool_id, outcome: ALLOW });
  command(c, "respond_permission", { key: beta, tool_id: betaAsk.tool_id, outcome: ALLOW });
  await untilResult(c);
  await untilResult(c);
});
