import { assert, assertEquals } from "./assert.ts";
import { texts, webWorld } from "./web_harness.ts";
import { GENERATED_SESSION, writeGenerated } from "../fixtures/history/generate.ts";

// A seat whose last session the session book remembers (no process runs it), with a long
// transcript of real CLI lines and a git working tree with changes. spec: more ("walked to the
// first row": a null cursor ends the walk); session > diff (raw hunks); file_content (a
// between-hunk expansion); commit_diff.

const LEAD = { org: "Acme", project: "hist", label: "lead" };

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args],
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

Deno.test({
  name: "web: a 200-turn history walks to its first prompt; a diff expands between its hunks",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "hist", autoStart: false }], {
      viewport: { width: 1280, height: 900 },
    });
    const dir = w.world.projectDir("hist");
    // The tree: 60 numbered lines committed, then lines 5 and 50 changed (two hunks, 40 lines
    // apart), and a second commit to read as a commit's own diff.
    const lines = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
    await git(dir, "init", "-q", "-b", "main");
    await Deno.writeTextFile(`${dir}/notes.txt`, lines.join("\n") + "\n");
    await git(dir, "add", ".");
    await git(dir, "commit", "-q", "-m", "first");
    await git(dir, "checkout", "-q", "-b", "feature");
    await Deno.writeTextFile(`${dir}/second.txt`, "from the second commit\n");
    await git(dir, "add", ".");
    await git(dir, "commit", "-q", "-m", "second");
    const changed = [...lines];
    changed[4] = "line five, changed";
    changed[49] = "line fifty, changed";
    await Deno.writeTextFile(`${dir}/notes.txt`, changed.join("\n") + "\n");

    // The remembered session: a generated transcript the seat pages from disk.
    const transcript = `${w.world.dir}/${GENERATED_SESSION}.jsonl`;
    await writeGenerated(transcript, 6 << 20);
    const state = `${w.world.dir}/forge/state/seats`;
    await Deno.mkdir(state, { recursive: true });
    await Deno.writeTextFile(
      `${state}/sessions.json`,
      JSON.stringify({
        "Acme/hist/lead": { slot: LEAD, session_id: GENERATED_SESSION, cwd: dir, transcript },
      }),
    );
    await w.restartForge();

    // The socket's own answer: walk the conversation with the protocol client to count its turns
    // and read its first prompt, the truth the page must reach.
    const c = await w.forge.ready();
    c.send({ kind: "subscribe", what: { session: LEAD } });
    const snap = (await c.next((m) => m.kind === "snapshot")).data as {
      conversation: { turns: unknown[]; cursor: string | null };
    };
    let total = snap.conversation.turns.length;
    for (let cursor = snap.conversation.cursor; cursor !== null;) {
      c.send({ kind: "more", conversation: LEAD, before: cursor, turns: 20 });
      const page = await c.next((m) => m.kind === "page");
      total += (page.turns as unknown[]).length;
      cursor = page.cursor as string | null;
    }
    assert(total >= 200, `the transcript holds ${total} turns`);

    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/hist/lead`);
    const chat = page.getByTestId("chat");
    await page.getByTestId("turn").first().waitFor();
    const start = page.getByTestId("history-start");
    // The reader scrolls up until the first prompt: a wheel to the top walks one `more`, and the
    // next wheel waits for its page to land (the turns held grew, or the walk reached the start).
    const held = () =>
      page.evaluate("globalThis.forgeDebug.client.state.seat.turns.length") as Promise<number>;
    for (let i = 0; i < 400 && !(await start.isVisible()); i++) {
      const before = await held();
      await chat.hover();
      await page.mouse.wheel(0, -1_000_000);
      await page.waitForFunction(
        `((s) => s.cursor === null || s.turns.length > ${before})` +
          "(globalThis.forgeDebug.client.state.seat)",
      );
    }
    await start.waitFor();
    // The conversation is virtualised: the page holds every turn, the DOM only those in view.
    assertEquals(
      await page.evaluate("globalThis.forgeDebug.client.state.seat.turns.length"),
      total,
    );
    assert(await page.getByTestId("turn").count() < total, "only the turns in view are drawn");
    // Pages this large cross as kind-3 frames (the page dialled deflate=1) and land in order.
    const inflated = await page.evaluate(
      "globalThis.forgeDebug.client.link.inflated",
    ) as number;
    assert(inflated > 0, "some page crossed gzipped");
    const prompts = await texts(page, "[data-testid=prompt]");
    assert(prompts.length > 0, "the history draws its prompts");
    await w.shot("seat-history-start");

    // Review: the changed file's two hunks, and the 40 lines between them read on demand.
    await page.goto(`${w.webUrl}#/seat/Acme/hist/lead/review`);
    const file = page.getByTestId("file-notes.txt");
    await file.waitFor();
    assert((await file.textContent())!.includes("line fifty, changed"));
    const gaps = file.getByTestId("expand");
    assertEquals(await gaps.count(), 2, "above the first hunk and between the two");
    assertEquals(await file.getByText("line 30", { exact: true }).count(), 0);
    await gaps.nth(1).click();
    await file.getByText("line 30", { exact: true }).waitFor();
    // Every hidden line is drawn once: line 1 above the first hunk (2..8, context 3) and 9..46
    // between it and the second (47..53).
    assertEquals(await file.getByTestId("expanded").count(), 1 + 38);
    await w.shot("review-expanded");

    // A review thread: a comment on a changed line, a reply, the review submitted, resolved.
    await file.getByTestId("comment-5").click();
    await page.getByTestId("comment-form").locator("textarea").fill("why five?");
    await page.getByTestId("comment-save").click();
    const thread = page.getByTestId("thread");
    await thread.getByText("why five?").waitFor();
    assert((await thread.textContent())!.includes("notes.txt:5"));
    await thread.getByPlaceholder("Reply").fill("because the test says so");
    await thread.getByTestId("reply").click();
    await thread.getByText("because the test says so").waitFor();
    await page.getByTestId("submit-review").click();
    await page.getByTestId("submitted").getByText("Review 1 submitted.").waitFor();
    await thread.getByTestId("resolve").click();
    await thread.getByTestId("thread-status").getByText("resolved").waitFor();
    await w.shot("review-thread");

    // The branch's second commit, and its own diff read on demand.
    const commit = page.locator(".commits li", { hasText: "second" }).getByRole("button");
    await commit.click();
    await page.getByTestId("commit-diff").getByTestId("file-second.txt").waitFor();

    // The tree moves under an open comment form and an opened stretch; the page reads the diff
    // again (spec: session > diff, "the tree's later movement arrives as work updates"). First a
    // change above line 50 that moves its row but not its number: the form stays on line 50.
    await file.getByTestId("comment-50").click();
    const form = page.getByTestId("comment-form");
    await form.locator("textarea").fill("a draft");
    changed[19] = "line twenty, changed";
    await Deno.writeTextFile(`${dir}/notes.txt`, changed.join("\n") + "\n");
    await file.getByText("line twenty, changed").waitFor();
    const underFifty = file.locator(
      "tr:has([data-testid=comment-50]) + tr [data-testid=comment-form]",
    );
    await underFifty.waitFor();
    assertEquals(await underFifty.locator("textarea").inputValue(), "a draft");
    // Then the tree moves under the opened stretch: these changes are committed (the tip the
    // stretch is read from moves) while a new first line and a change at line 58 are written.
    // The stretch is read again from the new tip and found by its old numbers: new line 21 is the
    // tip's line 20, the change just committed. Line 50 left the diff; its form stays, words kept.
    await git(dir, "add", "notes.txt");
    changed[57] = "line fifty-eight, changed";
    await Deno.writeTextFile(
      `${dir}/notes.txt`,
      ["a new first line", ...changed].join("\n") + "\n",
    );
    await git(dir, "commit", "-q", "-m", "third");
    await file.getByText("a new first line").waitFor();
    await file.locator("[data-testid=expanded][data-line='21']", {
      hasText: "line twenty, changed",
    }).waitFor();
    assertEquals(
      await file.locator("[data-testid=expanded][data-line='30']").textContent(),
      "2930 line 29",
    );
    await form.getByText("no longer in the diff").waitFor();
    assertEquals(await form.locator("textarea").inputValue(), "a draft");
  },
});
