// The Slack poll against the fake Web API: a subscribed conversation is read from
// its mark, a 429's Retry-After is waited out before the next call, threads are followed, the
// user's own messages are skipped, a conversation Slack refuses does not stop the others, and the stored marks mean a new hub delivers nothing twice.
import { startFakeSlack } from "../../fixtures/slack/mod.ts";
import type { SlackSubscription } from "../../protocol/mod.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { marksFile, type SlackArrival, SlackHub } from "./slack_hub.ts";

async function until(cond: () => boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SUB: SlackSubscription = {
  id: "s1",
  org: "Acme",
  project: "alpha",
  owner: "lead",
  workspace: "acme",
  direct_messages: false,
  mentions: false,
  // C0GONE is a conversation Slack refuses (left or archived): the others are still read.
  conversations: [{ id: "C0GONE", mode: "all" }, { id: "C0GENERAL", mode: "all" }],
};

Deno.test("slack poll: reads from the mark, waits out 429 Retry-After, follows threads, once across a restart", async () => {
  const fake = await startFakeSlack();
  const dir = await Deno.makeTempDir({ prefix: "forge-slack-" });
  const got: SlackArrival[] = [];
  const hub = () =>
    new SlackHub([{
      workspace: "acme",
      token: fake.token,
      poll_seconds: 1,
      thread_idle_days: 14,
      api_url: fake.apiUrl,
    }], {
      marks: marksFile(new StateKeeper(memoryLogger()), `${dir}/marks.json`),
      subscriptions: () => [SUB],
      arrive: (a) => got.push(a),
      onState: () => {},
      warn: () => {},
      threadSweepSeconds: 1,
    });
  let h = hub();
  try {
    await fake.say("C0GENERAL", "U0ALICE", "before the subscription");
    await h.start();
    await until(() => h.workspaces.get("acme")!.connected, "the first poll");
    await fake.rateLimit(2);
    const root = await fake.say("C0GENERAL", "U0ALICE", "root");
    await fake.say("C0GENERAL", "U0FORGE", "my own");
    await until(() => got.length === 1, "the root message");
    await fake.say("C0GENERAL", "U0ALICE", "a reply", root);
    await until(() => got.length === 2, "the reply");
    assertEquals(got.map((a) => [a.text, a.threadTs, a.userName, a.conversationName]), [
      ["root", null, "alice", "general"],
      ["a reply", root, "alice", "general"],
    ]);

    const calls = await fake.calls();
    const i = calls.findIndex((c) => c.limited);
    assert(i >= 0 && i + 1 < calls.length, "a call was rate-limited and the poll went on");
    assert(calls[i + 1].at - calls[i].at >= 2000, "Retry-After: 2 was waited out");

    await h.stop();
    await fake.say("C0GENERAL", "U0ALICE", "while away");
    h = hub();
    await h.start();
    await until(() => got.length === 3, "the message sent while the hub was down");
    // One more whole poll after it: nothing repeats.
    const reads = async () =>
      (await fake.calls()).filter((c) => c.method === "conversations.history").length;
    const seen = await reads();
    for (let n = seen; n < seen + 2;) {
      await new Promise((r) => setTimeout(r, 50));
      n = await reads();
    }
    assertEquals(got.map((a) => a.text), ["root", "a reply", "while away"]);
  } finally {
    await h.stop();
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
