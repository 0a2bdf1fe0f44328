import { assertEquals } from "./assert.ts";
import { git } from "./harness.ts";
import { fakeGh } from "./review_support.ts";
import { webWorld } from "./web_harness.ts";

// The review page's PR row: the open pull request the seat's branch is on and the issues it
// closes, which forge reads through `gh`. gh is not installed here and the network is not
// reachable, so a stand-in `gh` first on forge's PATH answers gh's own JSON shapes (the one
// subsystems/review/pr_test.ts uses). The seat has a session, so the record read serves the
// cache and the seat's watch looks the PR up and pushes it. spec: What a subject carries >
// session (`pr, closes`).

Deno.test({
  name: "web: the review page draws the branch's PR and the issues it closes",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "shipit" }], {
      before: async (world) => {
        const repo = world.projectDir("shipit");
        git(repo, "init", "-q", "-b", "main");
        await Deno.writeTextFile(`${repo}/README`, "shipit\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "first");
        git(repo, "checkout", "-q", "-b", "feature");
        const bin = `${world.dir}/bin`;
        await Deno.mkdir(bin);
        await fakeGh(bin);
        await Deno.writeTextFile(`${bin}/signed_in`, "");
        await Deno.writeTextFile(`${bin}/has_pr`, "");
      },
      env: (world) => ({ PATH: `${world.dir}/bin:${Deno.env.get("PATH") ?? ""}` }),
    });
    const { page } = w;
    // A turn first, so the seat has a session (its reads serve the stores and the watch).
    await page.goto(`${w.webUrl}#/seat/Acme/shipit/lead`);
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("composer").fill("[[script:hello]] hi");
    await page.getByTestId("send").click();
    await page.getByText("Hello from the scripted model, streamed in small pieces.").waitFor({
      timeout: 60_000,
    });

    await page.goto(`${w.webUrl}#/seat/Acme/shipit/lead/review`);
    const row = page.getByTestId("pr-row");
    await row.getByTestId("pr-link").waitFor({ timeout: 30_000 });
    assertEquals(await row.getByTestId("pr-link").textContent(), "PR #42");
    assertEquals(
      await row.getByTestId("pr-link").getAttribute("href"),
      "https://example.invalid/o/r/pull/42",
    );
    await row.getByTestId("pr-draft").waitFor();
    assertEquals(await row.getByTestId("pr-issue").allTextContents(), ["#7"]);
    assertEquals(
      await row.getByTestId("pr-issue").getAttribute("href"),
      "https://example.invalid/o/r/issues/7",
    );
    assertEquals(await row.getAttribute("aria-label"), "PR #42 (draft) -> closes #7");
    await w.shot("review-pr");
  },
});
