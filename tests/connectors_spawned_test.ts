// Spawned tier: forge runs as a process with a fake Gotify server and a fake Slack Web API, each
// its own process; its lead runs the real claude CLI against the fake Messages API, scripted
// (fixtures/connectors/script.json) to call forge's gotify__* and slack__* tools.
// spec: "Not every frame on the stream is the CLI's" (a Gotify notification and a Slack message
// are forged user turns with their source); session > pending_asks (a Slack draft is held);
// home > connectors; board > connectors; the original's respond_slack_post and its connector
// updates; the original forge's `gotify` and `slack` tool families.
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  connectorWorld,
  homeConnectors,
  nextDeliveries,
  nextDelivery,
  nextUpdate,
} from "./connectors_harness.ts";
import { firstUpdate, promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { until } from "./harness.ts";
import { command, subscribeSeat, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("gotify: an agent subscribes, a matching notification is the lead's next turn (source gotify); across a server restart the messages sent meanwhile arrive once", async () => {
  await using w = await connectorWorld();
  const forge = await w.world.startForge();
  const lead = w.world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  const board = await forge.ready();
  board.send({ kind: "subscribe", what: "board" });
  await board.next((m) => m.kind === "snapshot" && m.subject === "board");
  await until(
    async () => ((await homeConnectors(c)).gotify as Msg).connected === true,
    30_000,
    "up",
  );

  const turn = await promptTurn(c, lead, "[[script:gsub]] watch ci");
  const [sub] = toolResultsOf(turn);
  assertMatch(sub.text, /^subscribed to Gotify \(id [0-9a-f-]{36}\)$/);
  const sets = await nextUpdate(board, "connector_subscriptions_changed");
  assertEquals((sets.gotify as Msg[]).map((s) => [s.owner, s.applications, s.min_priority]), [
    ["lead", ["ci"], 5],
  ]);

  await w.gotify.push("backup", { title: "nightly", message: "not subscribed", priority: 9 });
  await w.gotify.push("ci", { title: "lint", message: "too quiet", priority: 2 });
  await w.gotify.push("ci", { title: "build 42", message: "deploy failed on main", priority: 8 });
  const first = await nextDelivery(c, "gotify");
  assertEquals(first.text, "[Gotify - app 'ci', priority 8]\nbuild 42\ndeploy failed on main");
  const appended = firstUpdate(first.frames, "gotify_notification_appended") ??
    await nextUpdate(c, "gotify_notification_appended");
  assertEquals(appended.notification, {
    app: "ci",
    title: "build 42",
    message: "deploy failed on main",
    priority: 8,
  });

  // The board carries the project's set; a bad unsubscribe is refused in words.
  board.send({ kind: "subscribe", what: "board" });
  const snap = await board.next((m) => m.kind === "snapshot" && m.subject === "board");
  const entry = (snap.data as { projects: { connectors: { gotify: Msg[] } }[] }).projects[0];
  assertEquals(entry.connectors.gotify.length, 1);
  await w.slack.say("C0GENERAL", "U0ALICE", "alice wrote this");
  const bad = toolResultsOf(await promptTurn(c, lead, "[[script:bad]] try bad things"));
  assertEquals(bad.map((r) => r.isError), [true, true, true, false, true]);
  assertMatch(bad[0].text, /no Slack workspace `nope` in forge.toml; there is acme/);
  assertMatch(bad[1].text, /this seat has no Gotify subscription 00000000-/);
  assertMatch(bad[2].text, /`not-a-uuid` is not a subscription id/);
  assertMatch(bad[4].text, /is not the user's own, so forge will not change it/);

  // The lead goes to sleep; what follows wakes it (delivered to the lead, waking it).
  command(c, "close_session", { session_key: lead });
  await c.next((m) => updateOf(m, "releasing") !== null, 30_000);

  // The Gotify server restarts mid-stream and takes a while to accept streams again: what was
  // sent meanwhile is caught up through /message paging, each once and in order.
  await w.gotify.restart({ refuseStreams: true });
  await w.gotify.push("ci", { title: "a", message: "sent while away 1", priority: 6 });
  await w.gotify.push("ci", { title: "b", message: "sent while away 2", priority: 6 });
  await w.gotify.acceptStreams(true);
  const away = await nextDeliveries(c, "gotify", 2);
  assertEquals(away.map((t) => t.split("\n").at(-1)), ["sent while away 1", "sent while away 2"]);
  await w.gotify.push("ci", { title: "c", message: "after the restart", priority: 6 });
  assertMatch((await nextDelivery(c, "gotify")).text, /after the restart$/, "no repeat between");
  const requests = await w.world.apiRequests() as unknown as { body: unknown }[];
  const mentions = (s: string) => requests.filter((r) => JSON.stringify(r.body).includes(s));
  assertEquals(mentions("sent while away 1").length > 0, true);
  assert(!requests.some((r) => JSON.stringify(r.body).includes("too quiet")), "below min");
});

async function postTurn(c: ForgeClient, lead: ReturnType<typeof Object>, script: string) {
  command(c, "prompt", { key: lead, text: `[[script:${script}]] say it`, attachments: [] });
  return await nextUpdate(c, "slack_post_pending", 60_000);
}

Deno.test("slack: a subscription delivers a channel message as a turn (source slack), once across a restart; slack__post waits for a person: approved it is posted, declined nothing is", async () => {
  await using w = await connectorWorld();
  let forge = await w.world.startForge();
  const lead = w.world.lead("alpha");
  let c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const [sub] = toolResultsOf(await promptTurn(c, lead, "[[script:ssub]] watch general"));
  assertMatch(sub.text, /^subscribed to Slack \(1\)/);
  await w.slack.say("C0GENERAL", "U0FORGE", "my own words are not news");
  await w.slack.say("C0RANDOM", "U0ALICE", "not a subscribed channel");
  await w.slack.say("C0GENERAL", "U0ALICE", "the build is red");
  const got = await nextDelivery(c, "slack");
  assertMatch(
    got.text,
    /^\[Slack - acme #general \(C0GENERAL\), ts \d+\.\d{6}\] alice \(U0ALICE\): the build is red$/,
  );
  const appended = firstUpdate(got.frames, "slack_message_appended") ??
    await nextUpdate(c, "slack_message_appended");
  assertEquals(appended.prose, got.text);

  // Posting parks a draft; the answering client approves and the fake receives the post.
  const pending = await postTurn(c, lead, "post");
  const draft = pending.draft;
  assertEquals([draft.workspace, draft.conversation, draft.text, draft.parts], [
    "acme",
    "C0GENERAL",
    "Deploy is green.",
    ["Deploy is green."],
  ]);
  command(c, "respond_slack_post", { key: lead, id: draft.id, approved: true });
  const done = await untilResult(c);
  assertEquals(toolResultsOf(done)[0].text, "posted to Slack (1 message)");
  const resolved = firstUpdate(done, "slack_draft_resolved")!;
  assertEquals(resolved.ending, { answered: { approved: true } });
  const posts = async () =>
    (await w.slack.calls()).filter((x) => x.method === "chat.postMessage").map((x) =>
      x.params.text
    );
  assertEquals(await posts(), ["Deploy is green."]);

  // A decline sends nothing.
  const again = (await postTurn(c, lead, "post")).draft;
  command(c, "respond_slack_post", { key: lead, id: again.id, approved: false });
  const declined = await untilResult(c);
  assertEquals(toolResultsOf(declined)[0].text, "not approved, so nothing was sent");
  assertEquals(firstUpdate(declined, "slack_draft_resolved")!.ending, {
    answered: { approved: false },
  });
  assertEquals(await posts(), ["Deploy is green."]);

  // Over 4,000 characters: numbered parts in the draft, each posted.
  const long = (await postTurn(c, lead, "longpost")).draft;
  const parts = long.parts as string[];
  assertEquals(parts.map((p) => p.slice(0, 6)), ["(1/3) ", "(2/3) ", "(3/3) "]);
  assert(parts.every((p) => p.length <= 4000), "each part fits");
  command(c, "respond_slack_post", { key: lead, id: long.id, approved: true });
  assertEquals(toolResultsOf(await untilResult(c))[0].text, "posted to Slack (3 messages)");
  assertEquals((await posts()).length, 4);

  // An upload is held like a post; approved, the fake has the file in the conversation.
  await Deno.writeTextFile(`${w.world.projectDir("alpha")}/notes.txt`, "meeting notes");
  const upload = (await postTurn(c, lead, "upload")).draft;
  assertEquals(upload.text, `[file] notes.txt\nfrom ${w.world.projectDir("alpha")}/notes.txt`);
  command(c, "respond_slack_post", { key: lead, id: upload.id, approved: true });
  assertEquals(toolResultsOf(await untilResult(c))[0].text, "uploaded");
  assertEquals((await w.slack.files()).map((f) => [f.name, f.channel, f.content]), [
    ["notes.txt", "C0GENERAL", "meeting notes"],
  ]);

  // Read-only tools do not park.
  const reads = await promptTurn(c, lead, "[[script:reads]] look around");
  assert(!firstUpdate(reads, "slack_post_pending"), "nothing parked");
  const [user, marks, list, search, pins] = toolResultsOf(reads).map((r) => JSON.parse(r.text));
  assertEquals([user.real_name, user.tz], ["Alice Example", "America/New_York"]);
  assertEquals(marks, [{
    id: "Bk0DOCS",
    title: "Runbook",
    link: "https://example.invalid/runbook",
  }]);
  assertEquals(list, [{ id: "C0GENERAL", name: "general", kind: "public", subscribed: true }]);
  assertEquals(search.map((m: Msg) => [m.conversation_name, m.username, m.text]), [
    ["general", "alice", "the build is red"],
  ]);
  assertEquals(pins, []);

  // forge restarts: the delivered message is not delivered again; a new one is, once.
  await forge.stop();
  await w.slack.say("C0GENERAL", "U0ALICE", "while forge was down");
  forge = await w.world.startForge();
  c = await forge.ready();
  await subscribeSeat(c, lead, true);
  assertMatch((await nextDelivery(c, "slack")).text, /while forge was down$/);
  await w.slack.say("C0GENERAL", "U0ALICE", "after the restart");
  assertMatch((await nextDelivery(c, "slack")).text, /after the restart$/);
  const requests = await w.world.apiRequests() as unknown as { body: unknown }[];
  // The delivered turn's own words (a search's tool_result may quote the message too).
  const red = requests.filter((r) => {
    const last = JSON.stringify((r.body as { messages?: unknown[] } | null)?.messages?.at(-1));
    return last?.includes("alice (U0ALICE): the build is red") === true;
  });
  assertEquals(red.length, 1, "the first message reached the model once");
  const home = await homeConnectors(c);
  assertEquals((home.slack as Msg).connected_workspaces, [["acme", true]]);
});

Deno.test("slack: an unanswered draft expires and nothing is sent; home shows a down Gotify as down, retried until it is back", async () => {
  await using w = await connectorWorld();
  await w.gotify.stop();
  // The test shortens the 600 s a draft waits (the original's) to 2 s.
  Deno.env.set("FORGE_SLACK_DRAFT_EXPIRY_SECONDS", "2");
  const forge = await w.world.startForge().finally(() =>
    Deno.env.delete("FORGE_SLACK_DRAFT_EXPIRY_SECONDS")
  );
  const lead = w.world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const down = (await homeConnectors(c)).gotify as Msg;
  assertEquals([down.connected, down.configured], [false, true]);
  await until(
    async () => {
      const g = (await homeConnectors(c)).gotify as Msg;
      return typeof g.error === "string" && /did not answer/.test(g.error);
    },
    30_000,
    "the reason it is down",
  );

  const draft = (await postTurn(c, lead, "post")).draft;
  const frames = await untilResult(c);
  const resolved = firstUpdate(frames, "slack_draft_resolved")!;
  assertEquals([resolved.id, resolved.ending], [draft.id, "expired"]);
  assertEquals(
    toolResultsOf(frames)[0].text,
    "nobody answered the draft within 2 s, so nothing was sent",
  );
  assert(!(await w.slack.calls()).some((x) => x.method === "chat.postMessage"), "nothing sent");

  // The server comes back on its address: the connector reconnects by itself.
  await w.gotify.restart();
  await until(
    async () => ((await homeConnectors(c)).gotify as Msg).connected === true,
    30_000,
    "up",
  );
  assertEquals(((await homeConnectors(c)).gotify as Msg).error, null);
});

Deno.test("connectors: without [gotify] the tools say so; a subscription store that fails to load is shown on home and never overwritten", async () => {
  await using w = await connectorWorld({ gotify: false });
  const store = `${w.world.dir}/forge/state/connectors/subscriptions.json`;
  await Deno.mkdir(store.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(store, "{ not json");
  const forge = await w.world.startForge();
  const lead = w.world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const home = await homeConnectors(c);
  assertEquals((home.gotify as Msg).configured, false);
  assertEquals((home.gotify as Msg).connected, false);
  assertEquals((home.slack as Msg).load_failed, true);
  assertMatch(
    String((home.slack as Msg).load_error),
    /subscriptions\.json did not parse \(it is not whole JSON\); forge kept a copy at /,
  );

  const [none] = toolResultsOf(await promptTurn(c, lead, "[[script:nogotify]] subscribe"));
  assertEquals(none.isError, true);
  assertMatch(none.text, /no Gotify server configured in forge.toml \[gotify\]/);
  const [refused] = toolResultsOf(await promptTurn(c, lead, "[[script:ssub]] watch general"));
  assertEquals(refused.isError, true);
  assertMatch(refused.text, /subscriptions\.json did not parse .* until the file is mended/);
  assertEquals(await Deno.readTextFile(store), "{ not json", "the file is left to be mended");

  // deliver_gotify_message: an app hands a notification to a project's lead itself.
  const notification = { app: "ops", title: "disk", message: "92% full", priority: 7 };
  command(c, "deliver_gotify_message", { project: "alpha", notification });
  const handed = await nextDelivery(c, "gotify");
  assertEquals(handed.text, "[Gotify - app 'ops', priority 7]\ndisk\n92% full");
  command(c, "deliver_gotify_message", { project: "nope", notification });
  const err = await c.next((m) => m.kind === "error");
  assertMatch(String(err.why), /deliver_gotify_message: no project `nope`/);
});
