import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask, git } from "./harness.ts";
import { subscribeSeat } from "./seats_harness.ts";
import { texts, webWorld } from "./web_harness.ts";

// The person's doors the page draws beside the conversation: removing a review thread (a refusal
// said in forge's words, the store left as it was) and closing the seat's terminal, then a fresh
// shell. spec: terminal_close; command > reply_to (remove_review_thread carries no reply).
// The real CLI on the fake Messages API, real git, a real PTY, real Chromium.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };

function thread(id: string, words: string) {
  const at = new Date().toISOString();
  return {
    id,
    anchor: {
      path: "notes.txt",
      side: "new",
      line: 1,
      content_hash: "1",
      context: ["hello"],
      base_ref: "main",
    },
    comments: [{ author: "user", text: words, at, review_id: null }],
    status: "open",
    created_at: at,
    updated_at: at,
    commit: null,
  };
}

/** The one threads.json the review store keeps under forge's state dir. */
async function threadsFile(stateDir: string): Promise<string> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(`${dir}/${e.name}`);
      else if (e.name === "threads.json") found.push(`${dir}/${e.name}`);
    }
  };
  await walk(`${stateDir}/reviews`);
  assertEquals(found.length, 1, `one threads store, not ${found}`);
  return found[0];
}

Deno.test({
  name: "web: a review thread is removed (a refusal said); a terminal is closed, then fresh",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      config: "[browser]\nenabled = false\n",
      before: async (world) => {
        const dir = world.projectDir("alpha");
        git(dir, "init", "-q", "-b", "main");
        await Deno.writeTextFile(`${dir}/notes.txt`, "hello\n");
        git(dir, "add", ".");
        git(dir, "commit", "-q", "-m", "first");
      },
    });
    const { page } = w;
    const c = await w.forge.ready();
    await subscribeSeat(c, ALPHA, true);
    for (const [id, words] of [["t-one", "first thread"], ["t-two", "second thread"]]) {
      const stored = await ask(c, "upsert_review_thread", {
        project: "alpha",
        branch: "main",
        thread: thread(id, words),
      });
      assertEquals(stored, true as unknown);
    }

    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead/review`);
    const threads = page.getByTestId("thread");
    await threads.getByText("second thread").waitFor({ timeout: 60_000 });
    assertEquals(await threads.count(), 2);

    // The store goes unreadable behind forge's back: the remove is refused in forge's words, the
    // thread stays drawn, and the file is not overwritten.
    const file = await threadsFile(`${w.world.dir}/forge/state`);
    const kept = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, "{ not json");
    await threads.filter({ hasText: "first thread" }).getByTestId("remove-thread").click();
    const notice = page.getByTestId("notices").locator(".notice", {
      hasText: "remove_review_thread",
    });
    await notice.waitFor();
    assertMatch((await notice.textContent())!, /t-one was not removed/);
    assertEquals(await Deno.readTextFile(file), "{ not json");
    assertEquals(await threads.count(), 2);

    // Readable again: the remove lands and the thread leaves the page.
    await Deno.writeTextFile(file, kept);
    await threads.filter({ hasText: "first thread" }).getByTestId("remove-thread").click();
    await threads.filter({ hasText: "first thread" }).waitFor({ state: "detached" });
    assertEquals(await texts(page, "[data-testid=thread] .comment"), ["user: second thread"]);
    const stored = JSON.parse(await Deno.readTextFile(file)) as { threads: { id: string }[] };
    assertEquals(stored.threads.map((t) => t.id), ["t-two"]);
    await w.shot("review-thread-removed");

    // The terminal: attached, closed by the person's door, and a fresh shell on a press.
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead/terminal`);
    await page.getByTestId("terminal-control").waitFor({ timeout: 60_000 });
    const first = await page.evaluate("globalThis.forgeDebug.client.state.terminal.id") as number;
    await page.getByTestId("terminal-close").click();
    await page.getByTestId("terminal-closed").waitFor();
    // The seat's record says the shell is gone, as the page does (spec: terminal_changed).
    assertEquals(await page.evaluate("globalThis.forgeDebug.client.state.seat.terminal"), null);
    await w.shot("terminal-closed");
    await page.getByTestId("terminal-reopen").click();
    await page.getByTestId("terminal-control").waitFor();
    const fresh = await page.evaluate("globalThis.forgeDebug.client.state.terminal.id") as number;
    assert(fresh !== first, `a fresh shell has a fresh id (${first} then ${fresh})`);
  },
});
