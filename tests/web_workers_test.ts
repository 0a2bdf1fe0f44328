import { assertEquals, assertMatch } from "./assert.ts";
import { git } from "./harness.ts";
import { webWorld } from "./web_harness.ts";

// Workers from the page: a lead's workers listed under it with their state, spawned and
// despawned from its seat (the reply's words shown; a dirty tree refused, then forced), closed,
// and a message delivered to a worker and to its lead. spec: command > reply_to (spawn_worker,
// despawn_worker answer through the reply, a refusal in its body); home > agents (tree); the
// original's worker commands (spawn_worker to deliver_worker_prompt_to_lead).

Deno.test({
  name: "web: spawn, message, close and despawn a lead's workers from its seat",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      before: (world) => {
        const repo = world.projectDir("alpha");
        git(repo, "init", "-q", "-b", "main");
        Deno.writeTextFileSync(`${repo}/README`, "alpha\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "first");
        return Promise.resolve();
      },
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    const workers = page.getByTestId("workers");
    await workers.locator("summary").click();
    const said = workers.getByTestId("worker-said");
    const spawn = async (label: string) => {
      await workers.getByTestId("worker-label").fill(label);
      await workers.getByTestId("worker-charter").fill(`do ${label}'s part`);
      await workers.getByTestId("worker-spawn").click();
      await said.getByText(/^Spawned \(fresh\) in /).waitFor({ timeout: 60_000 });
      return (await said.textContent())!.replace(/^Spawned \(fresh\) in /, "").split(";")[0];
    };
    const tree = await spawn("w1");
    assertEquals(git(tree, "rev-parse", "--abbrev-ref", "HEAD"), "worktree-w1");
    const w1 = workers.getByTestId("worker-w1");
    await w1.getByTestId("worker-state").getByText(/Idle|Running/).waitFor({ timeout: 60_000 });
    // The home lists it under its lead.
    await page.goto(`${w.webUrl}#/`);
    await page.getByTestId("workers-of-alpha").getByTestId("seat-Acme/alpha/w1").waitFor();
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);

    // A message to the worker lands in its conversation as a peer's envelope; one to its lead in
    // the lead's.
    await w1.getByTestId("worker-message").fill("start with the README");
    await w1.getByTestId("worker-send").click();
    await w1.getByTestId("worker-message").fill("w1 is under way");
    await w1.getByTestId("worker-send-lead").click();
    await page.getByTestId("prompt").getByText("w1 is under way").waitFor({ timeout: 60_000 });
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/w1`);
    await page.getByTestId("prompt").getByText("start with the README").waitFor({
      timeout: 60_000,
    });
    assertMatch(
      (await page.getByTestId("prompt").first().textContent())!,
      /peer\[Message id=.* from agent 'you'/,
    );
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await w.shot("seat-workers");

    // A dirty tree refuses the despawn in the server's words; the force choice despawns it.
    await Deno.writeTextFile(`${tree}/scratch.txt`, "unsaved work\n");
    await w1.getByTestId("worker-despawn").click();
    await said.getByTestId("worker-force").waitFor({ timeout: 60_000 });
    assertMatch((await said.textContent())!, /holds 1 untracked file; .*despawn with force/);
    await said.getByTestId("worker-force").click();
    await said.getByText(/^Despawned w1\./).waitFor({ timeout: 60_000 });
    await w1.waitFor({ state: "detached", timeout: 60_000 });

    // A second worker closed from the page: its row stays, its process goes.
    await spawn("w2");
    const w2 = workers.getByTestId("worker-w2");
    await w2.getByTestId("worker-state").getByText(/Idle|Running/).waitFor({ timeout: 60_000 });
    await w2.getByTestId("worker-close").click();
    await w2.getByTestId("worker-state").getByText("Sleeping").waitFor({ timeout: 60_000 });
  },
});
