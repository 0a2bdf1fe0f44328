// The Slack poll over more than one page of `conversations.history` and `conversations.replies`
// between two polls (a restart, an outage, a busy channel): every message arrives, once, oldest
// first, whatever page size Slack imposes, across restarts (the marks kept by the keeper), when
// the page cap leaves the rest to later polls, and when a poll fails midway.
import { type FakeSlack, startFakeSlack } from "../../fixtures/slack/mod.ts";
import type { SlackSubscription } from "../../protocol/mod.ts";
import { assert, assertEquals } from "../../tests/assert.ts";
import { until } from "../../tests/harness.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { marksFile, type SlackArrival, SlackHub, SlackWorkspace } from "./slack_hub.ts";

/** How long a wait for the hub's polls may take on a loaded machine. */
const POLL_BOUND_MS = 60_000;

const SUB: SlackSubscription = {
  id: "s1",
  org: "Acme",
  project: "alpha",
  owner: "lead",
  workspace: "acme",
  direct_messages: false,
  mentions: false,
  conversations: [{ id: "C0GENERAL", mode: "all" }],
};

/** A hub per restart over one marks file; `polls` counts the polls that stored their marks. */
class World {
  got: SlackArrival[] = [];
  warned: string[] = [];
  polls = 0;
  hub: SlackHub | null = null;
  /** The subscriptions the hub polls for (a test unsubscribes by emptying it). */
  subs: SlackSubscription[] = [SUB];
  constructor(readonly fake: FakeSlack, readonly dir: string, readonly pagesPerPoll?: number) {}

  /** A new hub with a new keeper (a restart), polling at once and every 50 ms. */
  async start(): Promise<void> {
    const marks = marksFile(new StateKeeper(memoryLogger()), `${this.dir}/marks.json`);
    const write = marks.write.bind(marks);
    marks.write = async (v) => {
      await write(v);
      this.polls++;
    };
    this.hub = new SlackHub([{
      workspace: "acme",
      token: this.fake.token,
      poll_seconds: 0.05,
      thread_idle_days: 14,
      api_url: this.fake.apiUrl,
    }], {
      marks,
      subscriptions: () => this.subs,
      arrive: (a) => this.got.push(a),
      onState: () => {},
      warn: (event) => this.warned.push(event),
      pagesPerPoll: this.pagesPerPoll,
      threadSweepSeconds: 0,
    });
    await this.hub.start();
  }

  /** Waits for `n` more polls to have stored their marks, then stops the hub. */
  async settle(n = 2): Promise<void> {
    const from = this.polls;
    await until(() => this.polls >= from + n, POLL_BOUND_MS, `${n} more polls`);
    await this.hub!.stop();
  }

  texts(): string[] {
    return this.got.map((a) => a.text);
  }

  async marks(): Promise<{ conversations: Record<string, string>; backlog: object }> {
    return JSON.parse(await Deno.readTextFile(`${this.dir}/marks.json`)).acme;
  }
}

async function world(pagesPerPoll?: number): Promise<[World, () => Promise<void>]> {
  const fake = await startFakeSlack();
  const dir = await Deno.makeTempDir({ prefix: "forge-slack-pages-" });
  const w = new World(fake, dir, pagesPerPoll);
  await w.start(); // the first poll marks the conversation at its newest: it reads from now
  await w.settle(1);
  return [w, async () => {
    await w.hub?.stop();
    await fake.stop();
    await Deno.remove(dir, { recursive: true });
  }];
}

async function say(fake: FakeSlack, prefix: string, n: number, thread?: string) {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    await fake.say("C0GENERAL", "U0ALICE", `${prefix}${i}`, thread);
    out.push(`${prefix}${i}`);
  }
  return out;
}

Deno.test("slack poll: 250 between polls, then 40 and a 20-reply thread at Slack's 15 a page, each once in order across restarts", async () => {
  const [w, done] = await world();
  try {
    const first = await say(w.fake, "m", 250);
    await w.start();
    await until(() => w.got.length >= 250, POLL_BOUND_MS, "250 messages");
    await w.settle();
    assertEquals(w.texts(), first, "every message past the first page, oldest first, once");
    const historyCalls = (await w.fake.calls()).filter((c) => c.method === "conversations.history");
    assert(historyCalls.some((c) => c.params.cursor), "the walk followed next_cursor");

    // An app outside the Marketplace: 15 a page whatever forge asks.
    await w.fake.pageLimit(15);
    const root = w.got[249].ts;
    const next = await say(w.fake, "n", 40);
    const replies = await say(w.fake, "r", 20, root);
    await w.start();
    await until(() => w.got.length >= 310, POLL_BOUND_MS, "40 messages and 20 replies");
    await w.settle();
    assertEquals(w.texts(), [...first, ...next, ...replies]);
    assertEquals(w.got.slice(290).map((a) => a.threadTs), replies.map(() => root));
    assertEquals((await w.marks()).conversations.C0GENERAL, w.got[289].ts, "the mark: n40");
    assertEquals(w.warned, []);
  } finally {
    await done();
  }
});

Deno.test("slack poll: a backlog over the page cap is read over several polls, oldest first, across a restart", async () => {
  const [w, done] = await world(2);
  try {
    await w.fake.pageLimit(15);
    const all = await say(w.fake, "m", 100); // 7 pages of 15; a poll reads 2
    await w.start();
    await w.settle(2);
    const midway = await w.marks();
    assertEquals(Object.keys(midway.backlog), ["C0GENERAL"], "the walk stopped and kept where");
    assertEquals(w.got.length, 0, "a walk cut short delivers nothing yet: older ones come first");
    await w.start();
    await until(() => w.got.length >= 100, POLL_BOUND_MS, "the whole backlog");
    await w.settle();
    assertEquals(w.texts(), all, "each once, oldest first, none skipped");
    assertEquals((await w.marks()).backlog, {}, "the backlog drained");
  } finally {
    await done();
  }
});

Deno.test("slack poll: a poll that fails midway through the pages loses nothing", async () => {
  const [w, done] = await world();
  try {
    const all = await say(w.fake, "m", 250);
    await w.fake.failAfter("conversations.history", 1, "internal_error", 1); // the second page
    await w.start();
    await until(() => w.got.length >= 250, POLL_BOUND_MS, "the next poll's 250");
    await w.settle();
    assertEquals(w.warned.slice(0, 1), ["slack_conversation_failed"]);
    assertEquals(w.texts(), all);
  } finally {
    await done();
  }
});

Deno.test("slack poll: a thread read that fails midway through its pages loses nothing", async () => {
  const [w, done] = await world();
  try {
    await say(w.fake, "root", 1);
    await w.start();
    await until(() => w.got.length === 1, POLL_BOUND_MS, "the thread's parent");
    await w.settle();
    const root = w.got[0].ts;
    await w.fake.pageLimit(15);
    const replies = await say(w.fake, "r", 20, root); // two pages: the parent and 14, then 6
    await w.fake.failAfter("conversations.replies", 1, "internal_error", 1); // the second
    await w.start();
    await until(() => w.got.length >= 21, POLL_BOUND_MS, "the thread's 20 replies");
    await w.settle();
    assertEquals(w.texts(), ["root1", ...replies], "each reply once, in order");
    const reads = (await w.fake.calls()).filter((c) => c.method === "conversations.replies");
    const failed = reads.findIndex((c) => c.params.cursor);
    assertEquals(reads[failed + 1].params.oldest, w.got[14].ts, "the rest read from r14 on");
  } finally {
    await done();
  }
});

Deno.test("slack poll: a conversation subscribed again after nobody watched it reads from then, not the gap", async () => {
  const [w, done] = await world();
  try {
    const before = await say(w.fake, "m", 3);
    await w.start();
    await until(() => w.got.length >= 3, POLL_BOUND_MS, "3 messages");
    await w.settle();
    assertEquals(w.texts(), before);
    // Unsubscribed: what is said meanwhile is nobody's news.
    w.subs = [];
    await say(w.fake, "gap", 5);
    // Subscribed again (as slack__subscribe does: the mark restarts, then the subscription).
    const ws = new SlackWorkspace({
      workspace: "acme",
      token: w.fake.token,
      poll_seconds: 0.05,
      thread_idle_days: 14,
      api_url: w.fake.apiUrl,
    }, () => {});
    await w.start();
    await w.hub!.markNow(ws, "C0GENERAL", true);
    w.subs = [SUB];
    const after = await say(w.fake, "n", 2);
    await until(() => w.got.length >= 5, POLL_BOUND_MS, "2 messages after the subscribe");
    await w.settle();
    assertEquals(w.texts(), [...before, ...after]);
  } finally {
    await done();
  }
});

Deno.test("slack threads: of 50 followed, only the 2 with news are read, found by a sweep that goes on where the page cap cut it", async () => {
  const [w, done] = await world(1);
  try {
    await w.fake.pageLimit(15);
    const roots = await say(w.fake, "root", 50); // 4 pages of 15; a poll reads 1
    await w.start();
    await until(() => w.got.length >= 50, POLL_BOUND_MS, "50 roots");
    assertEquals(w.texts(), roots);
    const from = (await w.fake.calls()).length;
    const oldest = w.got[0].ts, newest = w.got[49].ts;
    await w.fake.say("C0GENERAL", "U0ALICE", "to the oldest", oldest);
    await w.fake.say("C0GENERAL", "U0ALICE", "to the newest", newest);
    await until(() => w.got.length >= 52, POLL_BOUND_MS, "both replies");
    await w.settle();
    assertEquals(w.got.slice(50).map((a) => [a.text, a.threadTs]).sort(), [
      ["to the newest", newest],
      ["to the oldest", oldest],
    ]);
    const asked = (await w.fake.calls()).slice(from).filter((c) =>
      c.method === "conversations.replies"
    ).map((c) => c.params.ts).sort();
    assertEquals(asked, [newest, oldest].sort(), "a replies call for each thread with news only");
    assertEquals(w.warned, []);
  } finally {
    await done();
  }
});
