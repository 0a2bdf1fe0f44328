// The original forge's `review` tool family: its shapes and rules - rounds newest first, other
// branches named (a second block; an error when the own branch has none), open -> addressed on a
// reply, resolved stays resolved, the lead's replies attributed to `agent`, the scope failures in
// words, and one notice per touched round when the turn ends.
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host, ToolCall, ToolResult } from "../../server/subsystem.ts";
import type { SessionUpdate, Slot } from "../../protocol/mod.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { ReviewActivity } from "./activity.ts";
import { REVIEW_TOOLS, reviewTools } from "./agent_tools.ts";
import { SeatToolServer } from "../../server/workspace/mcp/mod.ts";
import { parseInput } from "../../server/workspace/mcp/catalog.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { workerPrompt } from "../../server/workers/rules.ts";
import { cleanup, g, initRepo, tempDir, write } from "../../tests/review_support.ts";
import { type ReviewThread, ThreadStore } from "./threads.ts";

const lead: Slot = { org: "Acme", project: "proj", label: "lead" };

function thread(id: string, line: number, text: string): ReviewThread {
  return {
    id,
    anchor: {
      path: "a.txt",
      side: "new",
      line,
      content_hash: "1",
      context: [`line ${line}`],
      base_ref: "main",
    },
    comments: [{ author: "user", text, at: "2026-01-01T00:00:00Z", review_id: null }],
    status: "open",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    commit: null,
  };
}

async function world() {
  const dir = await tempDir();
  const repo = await initRepo(`${dir}/repo`);
  await write(`${repo}/a.txt`, "line 1\nline 2\n");
  await g(repo, "add", ".");
  await g(repo, "commit", "-q", "-m", "one");
  const store = new ThreadStore(new StateKeeper(memoryLogger()), `${dir}/state`);
  const emitted: SessionUpdate[] = [];
  const project = { org: "Acme", name: "proj", path: repo } as Host["workspace"] extends
    { projects(): (infer P)[] } ? P : never;
  const seat = { slot: lead, project, cwd: repo, sessionId: () => "s1" };
  const host = {
    log: memoryLogger(),
    emit: (u: SessionUpdate) => emitted.push(u),
    workspace: { seats: () => [seat], projects: () => [project] },
  } as unknown as Host;
  const activity = new ReviewActivity(host, store);
  const tools = reviewTools({ store, activity, shuttingDown: () => false });
  const call = { seat, role: "lead", toolUseId: null, signal: new AbortController().signal };
  const run = (name: string, input: unknown = {}): Promise<ToolResult> =>
    tools[name](input, call as ToolCall);
  return { dir, repo, store, emitted, activity, run };
}

Deno.test("review family: list newest first, get one round, reply and resolve by the rules", async () => {
  const w = await world();
  try {
    assertEquals((await w.run("review__list")).text, "[]", "nothing anywhere is []");
    await w.store.upsert("proj", "main", thread("t1", 1, "first"));
    const r1 = (await w.store.submitReview("proj", "main", "round one", ["t1"]))!;
    await w.store.upsert("proj", "main", thread("t2", 2, "second"));
    const r2 = (await w.store.submitReview("proj", "main", null, ["t2"]))!;
    const list = JSON.parse((await w.run("review__list")).text);
    assertEquals(list.map((r: { number: number }) => r.number), [2, 1], "newest first");
    assertEquals(list[0], {
      review_id: r2.id,
      number: 2,
      created_at: r2.created_at,
      comment_count: 1,
      open: 1,
      addressed: 0,
      resolved: 0,
      outdated: 0,
    }, "a round with no summary carries none");
    assertEquals(list[1].summary, "round one");

    const got = JSON.parse((await w.run("review__get", { review_id: r1.id })).text);
    assertEquals(got.comments, [{
      comment_id: "t1",
      file: "a.txt",
      line: 1,
      side: "new",
      status: "open",
      context: ["line 1"],
      thread: [{ author: "you", text: "first", at: "2026-01-01T00:00:00Z", review: 1 }],
    }]);
    assertMatch((await w.run("review__get", { review_id: "nope" })).text, /no review nope/);

    const replied = await w.run("review__reply", { comment_id: "t1", text: "done" });
    assertEquals(JSON.parse(replied.text), { comment_id: "t1", status: "addressed" });
    const resolved = await w.run("review__resolve", { comment_id: "t1" });
    assertEquals(JSON.parse(resolved.text), { comment_id: "t1", status: "resolved" });
    const again = await w.run("review__reply", { comment_id: "t1", text: "one more" });
    assertEquals(JSON.parse(again.text).status, "resolved", "resolved stays resolved");
    const t1 = (await w.store.readThreads("proj", "main") as { value: ReviewThread[] }).value[0];
    assertEquals(t1.comments.slice(1).map((c) => [c.author, c.text, c.review_id]), [
      [{ agent: { label: "agent" } }, "done", null],
      [{ agent: { label: "agent" } }, "one more", null],
    ], "a lead's replies are the agent's");
    const unknown = await w.run("review__resolve", { comment_id: "t9" });
    assertEquals(unknown.isError, true);
    assertMatch(unknown.text, /no comment t9 on proj@main/);

    // Each write reached the branch's viewers; the turn's end tells the reviewer once per round.
    const pushed = w.emitted.filter((u) => u.name === "review_threads_changed");
    assertEquals(pushed.length, 3);
    assertEquals(pushed[0].fields?.key, lead);
    await w.activity.onUpdate({
      name: "turn_complete",
      fields: { key: lead, terminal_reason: null },
    });
    const notices = w.emitted.filter((u) => u.name === "review_activity_notice");
    assertEquals(notices.length, 1);
    assertEquals(notices[0].fields, {
      key: lead,
      branch: "main",
      waiting: 0,
      message: "agent addressed review #1 - 1 replied, 1 resolved, 0 open. Open /diff.",
    });
  } finally {
    await cleanup(w.dir);
  }
});

Deno.test("review family: other branches are named; the scope's failures are said in words", async () => {
  const w = await world();
  try {
    await w.store.upsert("proj", "feature", thread("t1", 1, "elsewhere"));
    await w.store.submitReview("proj", "feature", null, ["t1"]);
    const none = await w.run("review__list");
    assertEquals(none.isError, true);
    assertMatch(none.text, /no review on main\. Other branches of proj with reviews: feature\./);
    await w.store.upsert("proj", "main", thread("t2", 1, "here"));
    await w.store.submitReview("proj", "main", null, ["t2"]);
    const both = await w.run("review__list");
    assertEquals(JSON.parse(both.text).length, 1);
    assertEquals(both.more, ["Other branches of proj with reviews: feature."]);

    await g(w.repo, "checkout", "-q", "--detach");
    assertMatch((await w.run("review__list")).text, /detached HEAD/);
    await Deno.remove(w.repo, { recursive: true });
    assertMatch((await w.run("review__list")).text, /is not on disk/);
  } finally {
    await cleanup(w.dir);
  }
});

// review is a selectable family: a worker given it lists the four tools, one
// not given it lists none (and its prompt says so, server/workers/rules.ts); a lead lists them.
Deno.test("review family: granted and withheld by a worker's mcp_families", () => {
  const listed = (label: string, families: string[] | null) =>
    new SeatToolServer(
      {
        slot: { ...lead, label },
        project: {} as SeatInfo["project"],
        cwd: "/",
        sessionId: () => null,
        toolFamilies: () => families,
      },
      () =>
        REVIEW_TOOLS.map((spec) => ({
          spec,
          handler: () => Promise.resolve({ text: "" }),
          subsystem: "review",
        })),
      memoryLogger(),
    ).current().map((t) => t.spec.name);
  const four = ["review__list", "review__get", "review__reply", "review__resolve"];
  assertEquals(listed("w1", ["review"]), four);
  assertEquals(listed("w1", ["cron", "tasks"]), []);
  assertEquals(listed("lead", null), four);
  assertMatch(workerPrompt({ ...lead, label: "w1" }, "/w", ["cron"], "x"), /no review tools/);
  assertEquals(
    workerPrompt({ ...lead, label: "w1" }, "/w", ["review"], "x").includes("no review tools"),
    false,
  );
});

// A thread belongs to one round, the newest its person's turns were filed in, so the rounds'
// counts add up to the threads (the notice at a turn's end reads rounds the same way).
Deno.test("review family: a thread raised again counts in its newest round only", async () => {
  const w = await world();
  try {
    await w.store.upsert("proj", "main", thread("t1", 1, "first"));
    await w.store.upsert("proj", "main", thread("t2", 2, "second"));
    const r1 = (await w.store.submitReview("proj", "main", null, ["t1", "t2"]))!;
    await w.store.changeThread("proj", "main", "t1", (t, at) => {
      t.comments.push({ author: "user", text: "still wrong", at, review_id: null });
    });
    const r2 = (await w.store.submitReview("proj", "main", null, ["t1"]))!;
    const list = JSON.parse((await w.run("review__list")).text) as {
      review_id: string;
      comment_count: number;
    }[];
    assertEquals(list.map((r) => [r.review_id, r.comment_count]), [[r2.id, 1], [r1.id, 1]]);
    const ids = async (id: string) =>
      JSON.parse((await w.run("review__get", { review_id: id })).text).comments.map((
        c: { comment_id: string },
      ) => c.comment_id);
    assertEquals([await ids(r1.id), await ids(r2.id)], [["t2"], ["t1"]]);
  } finally {
    await cleanup(w.dir);
  }
});

Deno.test("review family: a reply is trimmed and a blank one refused; a broken store in forge's words", async () => {
  const w = await world();
  try {
    const reply = REVIEW_TOOLS.find((t) => t.name === "review__reply")!;
    const blank = parseInput(reply, { comment_id: "t1", text: "  \n " });
    assertEquals(blank.ok, false, "a reply of blanks says nothing");
    const padded = parseInput(reply, { comment_id: "t1", text: "  fixed it \n" });
    assertEquals(padded, { ok: true, input: { comment_id: "t1", text: "fixed it" } });
    await w.store.upsert("proj", "main", thread("t1", 1, "first"));
    await w.run("review__reply", { comment_id: "t1", text: " done  " });
    const t1 = (await w.store.readThreads("proj", "main") as { value: ReviewThread[] }).value[0];
    assertEquals(t1.comments.at(-1)!.text, "done");

    const file = `${w.store.dirOf("proj", "main")}/threads.json`;
    await Deno.writeTextFile(file, "{ not json");
    const broken = await w.run("review__list");
    assertEquals(broken.isError, true);
    assertMatch(
      broken.text,
      /^review__list: \/.*threads\.json did not parse \(it is not whole JSON\); forge kept a copy at .* until the file is mended or removed$/,
    );
  } finally {
    await cleanup(w.dir);
  }
});
