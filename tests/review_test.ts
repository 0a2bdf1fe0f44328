import type { ReviewThread } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";

const seat = { org: "Acme", project: "proj", label: "lead" };

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

async function repo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "forge-review-" });
  await git(dir, "init", "-q", "-b", "main");
  await Deno.writeTextFile(`${dir}/a.txt`, "one\ntwo\nthree\n");
  await Deno.writeTextFile(`${dir}/README.md`, "# Title\n\nBody line.\n");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "-m", "first");
  return dir;
}

const config = (path: string) =>
  `[[accounts]]\ndisplay_name = "F"\nprovider = "anthropic"\n[[orgs]]\nname = "Acme"\naccounts = ["F"]\n` +
  `[[orgs.projects]]\nname = "proj"\npath = "${path}"\n[terminal]\nenabled = false\n`;

// spec: session table rows work, git, diff, file_index, reviews; work_changed from the watch.
Deno.test("review: the session record carries the tree, and an edit pushes work_changed", async () => {
  const dir = await repo();
  try {
    await using t = await testServer(config(dir));
    const c = await t.ready();
    await Deno.writeTextFile(`${dir}/a.txt`, "one\n2\nthree\nfour\n");
    c.send({ kind: "subscribe", what: { session: seat } });
    const data = (await c.next((m) => m.kind === "snapshot")).data as Record<string, unknown>;
    const work = data.work as { branch: string; changed: number; gate: string };
    assertEquals([work.branch, work.changed, work.gate], ["main", 1, "in_repo"]);
    const gitRow = data.git as {
      default_branch: string;
      worktree: { files?: { path: string; status: string }[] };
    };
    assertEquals(gitRow.default_branch, "main");
    assert(JSON.stringify(data.diff).includes('"a.txt"'), "the diff names the changed file");
    assert(JSON.stringify(data.diff).includes('"four"'), "the diff carries the raw added line");
    assert(JSON.stringify(data.file_index).includes("README.md"));
    assertEquals(data.reviews, {
      threads: { outcome: "read", value: [] },
      reviews: { outcome: "read", value: [] },
    });
    await Deno.writeTextFile(`${dir}/b.txt`, "new file\n");
    const pushed = await c.next(
      (m) => m.kind === "update" && "work_changed" in (m.update as object),
      15_000,
    );
    const row =
      (pushed.update as { work_changed: { key: unknown; work: { changed: number } } }).work_changed;
    assertEquals([row.key, row.work.changed], [seat, 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// spec: file_content: no error arm; the revision resolved first, so an option-shaped sha fails.
Deno.test("review: file_content reads at a revision and refuses injection without an error arm", async () => {
  const dir = await repo();
  try {
    await using t = await testServer(config(dir));
    const c = await t.ready();
    c.send({ kind: "file_content", session: seat, path: "a.txt", sha: null });
    const ok = await c.next();
    assertEquals([ok.kind, ok.path, ok.content], ["file_content", "a.txt", {
      state: "read",
      lines: ["one", "two", "three"],
      truncated: false,
    }]);
    const asks: [string, string | null][] = [
      ["a.txt", "--output=x"],
      ["../x", null],
      ["/etc/passwd", null],
    ];
    for (const [path, sha] of asks) {
      c.send({ kind: "file_content", session: seat, path, sha });
      const failed = await c.next();
      assertEquals([failed.kind, (failed.content as { state: string }).state], [
        "file_content",
        "failed",
      ]);
    }
    const leaked = await Deno.stat(`${dir}/x`).then(() => true, () => false);
    assertEquals(leaked, false, "nothing was written by an option-shaped sha");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// spec: "What is not here" (commit_diff): one commit's own diff, asked on demand; with reply_to
// its answer rides the reply (VERB_REPLIES), which the harness reads against its schema.
Deno.test("review: commit_diff answers through its reply or its own message", async () => {
  const dir = await repo();
  try {
    const head = await git(dir, "rev-parse", "HEAD");
    await using t = await testServer(config(dir));
    const c = await t.ready();
    c.send({ kind: "commit_diff", session: seat, sha: "HEAD", reply_to: 1 });
    const body = (await c.next((m) => m.kind === "reply" && m.reply_to === 1)).body as {
      ok: boolean;
      commit: string;
      diff: { populated: { files: { path: string }[] } };
    };
    assertEquals([body.ok, body.commit], [true, head]);
    assertEquals(body.diff.populated.files.map((f) => f.path).sort(), ["README.md", "a.txt"]);
    c.send({ kind: "commit_diff", session: seat, sha: "--all", reply_to: 2 });
    assertEquals((await c.next((m) => m.kind === "reply" && m.reply_to === 2)).body, {
      ok: false,
      why: '"--all" is not a revision',
    });
    c.send({ kind: "commit_diff", session: seat, sha: "HEAD" });
    const own = await c.next((m) => m.kind === "commit_diff");
    assertEquals([own.ok, own.commit, own.sha], [true, head, "HEAD"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// spec: document_read: confined to the tree; refusals are errors naming document_read.
Deno.test("review: document_read serves the tree's documents and refuses a walk out by name", async () => {
  const dir = await repo();
  try {
    await using t = await testServer(config(dir));
    const c = await t.ready();
    c.send({ kind: "document_read", session: seat, path: "README.md", reviewable: true });
    const doc = await c.next();
    assertEquals([doc.kind, doc.document_kind, doc.reviewable], [
      "document_read",
      "markdown",
      true,
    ]);
    assertEquals(atob(String(doc.bytes)), "# Title\n\nBody line.\n");
    assertMatch(String(doc.content_hash), /^\d+$/);
    c.send({
      kind: "document_read",
      session: seat,
      path: "../../../etc/passwd",
      reviewable: false,
    });
    const e = await c.next();
    assertEquals([e.kind, e.what, e.seat], ["error", "document_read", seat]);
    assertMatch(String(e.why), /outside/);
    // spec: answer_document_hand_off: the answer is the reader's decision, never a bare done.
    c.sendUntyped({ kind: "answer_document_hand_off", key: seat, id: "h-1", answer: "done" });
    const bare = await c.next();
    assertEquals([bare.kind, bare.what, bare.seat, bare.why], [
      "error",
      "answer_document_hand_off",
      seat,
      'answer_document_hand_off: answer: expected "not_now" or an object, got a string',
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// spec: command > reply_to: the review writes answer through the reply.
Deno.test("review: threads are written through reply commands and read back on the record", async () => {
  const dir = await repo();
  try {
    await using t = await testServer(config(dir));
    const c = await t.ready();
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
      comments: [{ author: "user", text: "why two?", at: "2026-12-02T10:00:00Z", review_id: null }],
      status: "open",
      created_at: "2026-12-02T10:00:00Z",
      updated_at: "2026-12-02T10:00:00Z",
      commit: null,
    } satisfies ReviewThread;
    c.send({
      kind: "command",
      command: { upsert_review_thread: { project: "proj", branch: "main", thread } },
      reply_to: 1,
    });
    const upserted = await c.next((m) => m.kind === "reply" && m.reply_to === 1);
    c.send({
      kind: "command",
      command: {
        submit_review: {
          project: "proj",
          branch: "main",
          summary: "looks fine",
          thread_ids: ["t1"],
          origin: seat,
        },
      },
      reply_to: 2,
    });
    const submitted = await c.next((m) => m.kind === "reply" && m.reply_to === 2);
    c.send({ kind: "subscribe", what: { session: seat } });
    const data = (await c.next((m) => m.kind === "snapshot")).data as {
      reviews: { threads: { value: { id: string }[] }; reviews: { value: unknown[] } };
    };
    assertEquals(upserted.body, true);
    const set = submitted.body as { id: string; number: number; summary: string };
    assertEquals([set.number, set.summary], [1, "looks fine"]);
    assertEquals(data.reviews.threads.value.map((x) => x.id), ["t1"]);
    assertEquals(data.reviews.reviews.value.length, 1);
    // spec: document_read: the scope's threads, each resolved in THIS document, and their reviews.
    c.send({ kind: "document_read", session: seat, path: "a.txt", reviewable: true });
    const doc = await c.next((m) => m.kind === "document_read");
    const [read] = doc.threads as { id: string; resolution: unknown }[];
    assertEquals([read.id, read.resolution], ["t1", { line: 2 }]);
    assertEquals((doc.reviews as { id: string }[]).map((r) => r.id), [set.id]);
    c.sendUntyped({
      kind: "command",
      command: {
        upsert_review_thread: {
          project: "proj",
          branch: "main",
          thread: { ...thread, status: "closed" },
        },
      },
      reply_to: 3,
    });
    assertEquals(
      (await c.next((m) => m.kind === "reply" && m.reply_to === 3)).body,
      'upsert_review_thread: thread.status: expected one of "open", "addressed", "resolved", "outdated", got "closed"',
      "a malformed thread is refused in the reply, naming its fields",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// spec: command > reply_to: a review write for a project the config does not declare is refused
// in forge's words naming it - in the reply for a reply command, as an error otherwise - and
// no store is made for the name.
Deno.test("review: a write for an undeclared project is refused by name and writes nothing", async () => {
  const dir = await repo();
  try {
    await using t = await testServer(config(dir));
    const c = await t.ready();
    const scope = { project: "nope-zz", branch: "b1" };
    const why = (name: string) =>
      `${name}: no project is named \`nope-zz\`; the projects are \`proj\``;
    c.send({
      kind: "command",
      command: { set_review_thread_status: { ...scope, thread_id: "t1", status: "resolved" } },
      reply_to: 1,
    });
    assertEquals(
      (await c.next((m) => m.kind === "reply" && m.reply_to === 1)).body,
      why("set_review_thread_status"),
    );
    c.send({ kind: "command", command: { save_review_threads: { ...scope, threads: [] } } });
    const refused = await c.next((m) => m.kind === "error");
    assertEquals([refused.what, refused.why], ["dispatch", why("save_review_threads")]);
    const made = await Deno.stat(`${t.dir}/state/reviews/nope-zz`).then(() => true, () => false);
    assertEquals(made, false, "no store was made for the name");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
