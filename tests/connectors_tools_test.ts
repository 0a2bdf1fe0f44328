// Spawned tier: the connector tools the first file leaves out, each checked against what the
// fakes received or hold. The original forge's `gotify` tools (gotify__list, gotify__apps,
// gotify__recent) and `slack` tools (slack__subscribe by direct_messages / mentions; slack__react
// and slack__edit held for a person, approved, own messages only for an edit); its
// respond_slack_post command and its slack_message_appended, slack_post_pending and
// slack_draft_resolved updates.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { connectorWorld, homeConnectors, nextDelivery, nextUpdate } from "./connectors_harness.ts";
import { until } from "./harness.ts";
import { firstUpdate, promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, subscribeSeat } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("gotify: list answers the seat's own subscriptions, apps the server's applications, recent the newest matching messages", async () => {
  await using w = await connectorWorld();
  const forge = await w.world.startForge();
  const lead = w.world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  await until(async () => ((await homeConnectors(c)).gotify as Msg).connected === true, 30_000);

  // Pushed with the server's own app tokens before anything subscribes, so none is delivered:
  // the reads below answer from the server, not from what reached the seat.
  await w.gotify.push("ci", { title: "old", message: "first build", priority: 6 });
  await w.gotify.push("backup", { title: "nightly", message: "another app", priority: 9 });
  await w.gotify.push("ci", { title: "quiet", message: "below the floor", priority: 1 });
  await w.gotify.push("ci", { title: "mid", message: "second build", priority: 7 });
  const last = await w.gotify.push("ci", { title: "new", message: "third build", priority: 8 });
  // forge's stream has taken the last of them (its cursor), before the subscription exists.
  const cursor = `${w.world.dir}/forge/state/connectors/gotify_cursor.json`;
  await until(
    async () => {
      const text = await Deno.readTextFile(cursor).catch(() => "{}");
      return (JSON.parse(text) as { last_id?: number }).last_id === last;
    },
    30_000,
    "forge to read the pushed messages",
  );
  const [sub] = toolResultsOf(await promptTurn(c, lead, "[[script:gsub]] watch ci"));
  const id = /id ([0-9a-f-]{36})/.exec(sub.text)![1];

  const reads = toolResultsOf(await promptTurn(c, lead, "[[script:greads]] what is there"));
  assertEquals(reads.map((r) => r.isError), [false, false, false]);
  const [list, apps, recent] = reads.map((r) => JSON.parse(r.text));
  assertEquals(list, [{ id, project: "alpha", applications: ["ci"], min_priority: 5 }]);
  assertEquals([...apps].sort(), ["backup", "ci", "forge"]);
  // applications ["ci"], min_priority 5, limit 2: the two newest ci messages at 5 or above.
  assertEquals(recent.map((r: Msg) => [r.app, r.title, r.message, r.priority]), [
    ["ci", "new", "third build", 8],
    ["ci", "mid", "second build", 7],
  ]);
  assert(recent.every((r: Msg) => typeof r.date === "string" && r.date !== ""), "dated");
});

Deno.test("slack: a direct-message and mention subscription delivers DMs and mentions only; react and an approved edit of the user's own message reach the workspace", async () => {
  await using w = await connectorWorld();
  const forge = await w.world.startForge();
  const lead = w.world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const [sub] = toolResultsOf(await promptTurn(c, lead, "[[script:sdm]] watch me"));
  assertMatch(sub.text, /^subscribed to Slack \(2\) \(id [0-9a-f-]{36}\)$/);
  // Said right after the subscribe: the subscription reads from the moment it was made.
  await w.slack.say("D0ALICE", "U0ALICE", "psst, a direct word");
  const dm = await nextDelivery(c, "slack");
  assertMatch(dm.text, /^\[Slack - acme .*\(D0ALICE\), ts \d+\.\d{6}\] alice \(U0ALICE\): psst/);
  const appended = firstUpdate(dm.frames, "slack_message_appended") ??
    await nextUpdate(c, "slack_message_appended");
  assertEquals(appended.prose, dm.text);
  // In a channel only a mention of the user is news; the unmentioned line before it is not.
  await w.slack.say("C0RANDOM", "U0ALICE", "chatter nobody asked for");
  await w.slack.say("C0RANDOM", "U0ALICE", "<@U0FORGE> can you look at this");
  const mention = await nextDelivery(c, "slack");
  assertMatch(mention.text, /#random \(C0RANDOM\).*alice \(U0ALICE\): <@U0FORGE> can you look/);
  const requests = await w.world.apiRequests() as unknown as { body: unknown }[];
  assert(!requests.some((r) => JSON.stringify(r.body).includes("chatter nobody")), "no mention");

  // slack__react is held like a post (the facade's gate, as in the original); approved, the fake
  // holds the reaction on the message.
  const ts = await w.slack.say("C0GENERAL", "U0FORGE", "typo heer");
  command(c, "prompt", { key: lead, text: "[[script:react]] ack it", attachments: [] });
  const react = (await nextUpdate(c, "slack_post_pending", 60_000)).draft;
  assertEquals([react.conversation, react.text, react.thread_ts], [
    "C0GENERAL",
    "[react: thumbsup]",
    ts,
  ]);
  command(c, "respond_slack_post", { key: lead, id: react.id, approved: true });
  assertEquals(toolResultsOf(await untilResult(c)).at(-1)!.text, "reacted");
  const calls = async (method: string) =>
    (await w.slack.calls()).filter((x) => x.method === method).map((x) => x.params);
  assertEquals((await calls("reactions.add")).map((p) => [p.channel, p.timestamp, p.name]), [
    ["C0GENERAL", ts, "thumbsup"],
  ]);

  // An edit of the user's own message is held; approved, the fake's message has the new text.
  command(c, "prompt", { key: lead, text: "[[script:editown]] fix it", attachments: [] });
  const edit = (await nextUpdate(c, "slack_post_pending", 60_000)).draft;
  assertEquals([edit.conversation, edit.text, edit.thread_ts], ["C0GENERAL", "typo here", ts]);
  command(c, "respond_slack_post", { key: lead, id: edit.id, approved: true });
  const edited = await untilResult(c);
  assertEquals(toolResultsOf(edited).at(-1)!.text, "updated");
  assertEquals(firstUpdate(edited, "slack_draft_resolved")!.ending, {
    answered: { approved: true },
  });
  assertEquals((await calls("chat.update")).map((p) => [p.channel, p.ts, p.text]), [
    ["C0GENERAL", ts, "typo here"],
  ]);
  assertEquals((await calls("chat.postMessage")).length, 0, "an edit posts nothing new");
});
