// Spawned tier: the review loop closes end to end with the real claude CLI on the fake API
// (fixtures/review/script.json). A person comments on a diff line over the socket, submits the
// review and prompts the seat; the agent lists and reads it (review__list, review__get), edits
// the file, replies and resolves; every viewer sees the threads move (review_threads_changed),
// the tree move (work_changed) and the turn's notice (review_activity_notice).
// The original forge's `review` tool family; spec: command > reply_to ("the three review writes");
// session > reviews, diff.
import {
  type CommandBody,
  commandWire,
  type ReplyCommandName,
  type ReviewThread,
} from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { type Msg, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";
import type { ForgeClient } from "../tools/client_lib.ts";

const SCRIPT = new URL("../fixtures/review/script.json", import.meta.url).pathname;

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args],
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Sends a reply command and returns its reply's body. */
async function ask<N extends ReplyCommandName>(
  c: ForgeClient,
  id: number,
  name: N,
  fields: CommandBody<N>,
): Promise<unknown> {
  c.send({ kind: "command", command: commandWire(name, fields), reply_to: id });
  return (await c.next((m) => m.kind === "reply" && m.reply_to === id, 15_000)).body;
}

/** The next review_threads_changed whose thread t1 passes `pred`, on one connection. */
async function threadMoves(c: ForgeClient, pred: (t: Msg) => boolean): Promise<Msg> {
  for (;;) {
    const m = await c.next((f) => !!updateOf(f, "review_threads_changed"), 60_000);
    const reviews = updateOf(m, "review_threads_changed")!.reviews as {
      threads: { value: Msg[] };
    };
    const t1 = reviews.threads.value.find((t) => t.id === "t1");
    if (t1 && pred(t1)) return t1;
  }
}

Deno.test("review loop: a person's review reaches the agent, whose answer reaches every viewer", async () => {
  await using world = await seatWorld([{ name: "alpha" }], SCRIPT);
  const dir = world.projectDir("alpha");
  await Deno.writeTextFile(`${dir}/a.txt`, "one\ntwo\nthree\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "-m", "first");
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const person = await forge.ready();
  const viewer = await forge.ready();
  await subscribeSeat(person, lead, true);
  await subscribeSeat(viewer, lead, false);

  // --- the person comments on line 2 and submits the review -------------------------------
  const thread = {
    id: "t1",
    anchor: {
      path: "a.txt",
      side: "new",
      line: 2,
      content_hash: "1",
      context: ["two"],
      base_ref: "main",
    },
    comments: [{ author: "user", text: "call it 2", at: "2026-12-02T10:00:00Z", review_id: null }],
    status: "open",
    created_at: "2026-12-02T10:00:00Z",
    updated_at: "2026-12-02T10:00:00Z",
    commit: null,
  } satisfies ReviewThread;
  const scope = { project: "alpha", branch: "main" };
  assertEquals(await ask(person, 1, "upsert_review_thread", { ...scope, thread }), true);
  await threadMoves(viewer, (t) => t.status === "open");
  const round = await ask(person, 2, "submit_review", {
    ...scope,
    summary: "one nit",
    thread_ids: ["t1"],
    origin: lead,
  }) as { id: string; number: number };
  assertEquals(round.number, 1);
  await threadMoves(viewer, (t) => (t.comments as Msg[])[0].review_id === round.id);

  // --- the person prompts the seat; the agent works the review --------------------------------
  command(person, "prompt", {
    key: lead,
    text: "[[script:review]] address my review",
    attachments: [],
  });
  const asked = typedUpdateOf(
    await person.next((m) => !!updateOf(m, "permission_request"), 60_000),
    "permission_request",
  )!;
  command(person, "respond_permission", {
    key: lead,
    tool_id: asked.tool_id,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  const turn = await untilResult(person, 90_000);
  const results = toolResultsOf(turn);
  const [listed, got, , replied, resolved] = results;
  const rows = JSON.parse(listed.text) as Msg[];
  assertEquals(rows.map((r) => [r.review_id, r.number, r.summary, r.open]), [
    [round.id, 1, "one nit", 1],
  ]);
  const read = JSON.parse(got.text) as { comments: Msg[] };
  assertEquals(read.comments.map((c) => [c.comment_id, c.file, c.line, c.context]), [
    ["t1", "a.txt", 2, ["two"]],
  ]);
  assertEquals((read.comments[0].thread as Msg[])[0], {
    author: "you",
    text: "call it 2",
    at: "2026-12-02T10:00:00Z",
    review: 1,
  });
  assertEquals(JSON.parse(replied.text), { comment_id: "t1", status: "addressed" });
  assertEquals(JSON.parse(resolved.text), { comment_id: "t1", status: "resolved" });
  assert(results.every((r) => !r.isError), JSON.stringify(results));
  assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\n2\nthree\n", "the agent edited it");

  // --- every viewer saw the threads, the tree and the turn's notice move ----------------------
  const addressed = await threadMoves(viewer, (t) => t.status === "addressed");
  assertEquals((addressed.comments as Msg[]).at(-1)!.author, { agent: { label: "agent" } });
  await threadMoves(viewer, (t) => t.status === "resolved");
  await viewer.next((m) => {
    const w = updateOf(m, "work_changed");
    return w !== null && (w.work as { changed: number }).changed === 1;
  }, 60_000);
  const notice = updateOf(
    await viewer.next((m) => !!updateOf(m, "review_activity_notice"), 60_000),
    "review_activity_notice",
  )!;
  assertEquals(notice, {
    key: lead,
    branch: "main",
    waiting: 0,
    message: "agent addressed review #1 - 1 replied, 1 resolved, 0 open. Open /diff.",
  });
  viewer.send({ kind: "subscribe", what: { session: lead } });
  const record = (await viewer.next((m) => m.kind === "snapshot" && m.subject !== "home"))
    .data as { diff: unknown; reviews: { threads: { value: Msg[] } } };
  assert(JSON.stringify(record.diff).includes('"text":"2"'), "the record's diff carries the edit");
  assertEquals(record.reviews.threads.value.map((t) => t.status), ["resolved"]);

  // --- the third review write answers through its reply, and refuses to run without one ------
  assertEquals(
    await ask(person, 3, "set_review_thread_status", { ...scope, thread_id: "t1", status: "open" }),
    true,
  );
  command(person, "set_review_thread_status", { ...scope, thread_id: "t1", status: "resolved" });
  const refused = await person.next((m) => m.kind === "error" && m.what === "reply_to");
  assertEquals(
    refused.why,
    "set_review_thread_status requires reply_to: its outcome rides the reply",
  );
});
