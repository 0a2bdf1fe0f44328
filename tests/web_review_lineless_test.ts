import { assert, assertEquals } from "./assert.ts";
import { git } from "./harness.ts";
import { PHONE, webWorld } from "./web_harness.ts";

// The review's working-tree changes on a phone (spec: session > diff): a new empty file says it
// is an empty file, in words (a space before each of its head's notes), where it drew git's
// bare hunk head `@@ -0,0 +1,0 @@` and nothing under it; a changed file still draws its lines.

Deno.test({
  name: "web: the review says a new empty file is one, not a bare hunk head",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      device: PHONE,
      before: async (world) => {
        const dir = world.projectDir("alpha");
        git(dir, "init", "-q", "-b", "main");
        await Deno.writeTextFile(`${dir}/notes.txt`, "one\n");
        git(dir, "add", "notes.txt");
        git(dir, "commit", "-q", "-m", "first");
        await Deno.writeTextFile(`${dir}/notes.txt`, "one, changed\n");
        await Deno.writeTextFile(`${dir}/empty.txt`, "");
      },
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead/review`);
    const empty = page.getByTestId("file-empty.txt");
    await empty.waitFor({ timeout: 60_000 });
    assertEquals(await empty.innerText(), "empty.txt untracked · an empty file");
    const notes = page.getByTestId("file-notes.txt");
    await notes.getByText("one, changed").waitFor();
    assert((await notes.innerText()).includes("@@ -1 +1 @@"), "a changed file keeps its hunk");
    await w.shot("phone-review-empty");
  },
});
