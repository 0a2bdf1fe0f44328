import { assert, assertEquals, assertMatch } from "./assert.ts";
import { git } from "./harness.ts";
import { MCP_SCRIPT } from "./mcp_harness.ts";
import { webWorld } from "./web_harness.ts";

// The home's per-project summary against a forge with two projects: seats by state, the asks
// waiting, the board's queue, what git says is changed, today's usage and when the project last
// moved, on a desk and on a phone. spec: What a subject carries > home (projects, fleet, agents) and > usage.

Deno.test({
  name: "web: each project on the home says its seats, asks, changes, usage and last activity",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }, { name: "beta" }], {
      script: MCP_SCRIPT,
      before: (world) => {
        const repo = world.projectDir("alpha");
        git(repo, "init", "-q", "-b", "main");
        Deno.writeTextFileSync(`${repo}/README`, "alpha\n");
        git(repo, "add", ".");
        git(repo, "commit", "-q", "-m", "first");
        Deno.writeTextFileSync(`${repo}/README`, "alpha, changed\n");
        return Promise.resolve();
      },
    });
    const { page } = w;
    // A turn on alpha's lead that parks an ask (a configuration write waits on the person).
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("composer").waitFor();
    await page.getByTestId("composer").fill("[[script:set1]] set the mark");
    await page.getByTestId("send").click();
    await page.getByTestId("ask-settings_write").waitFor({ timeout: 60_000 });

    await page.goto(`${w.webUrl}#/`);
    const alpha = page.getByTestId("project-alpha").getByTestId("project-glance");
    const beta = page.getByTestId("project-beta").getByTestId("project-glance");
    await alpha.getByTestId("glance-asks").getByText("1 ask waiting").waitFor({ timeout: 30_000 });
    assertMatch((await alpha.getByTestId("glance-seats").textContent())!, /^1 seat: 1 \w+$/);
    // The live count says what it counts, in words a touch screen shows too.
    assertMatch(
      (await page.getByTestId("project-alpha").getByTestId("project-live").textContent())!,
      /^· 1 seat live, room for \d+$/,
    );
    assertEquals(await alpha.getByTestId("glance-changes").textContent(), "1 file changed on main");
    assertMatch(
      (await alpha.getByTestId("glance-active").textContent())!,
      /^last active (just now|\d+ min ago)$/,
    );
    // beta: its lead is up but was never prompted; nothing waits, no repository to count.
    await beta.getByTestId("glance-seats").getByText("1 seat: 1 Idle").waitFor();
    for (const part of ["asks", "changes", "active", "today", "board"]) {
      assertEquals(await beta.getByTestId(`glance-${part}`).count(), 0, part);
    }
    // A task filed on beta's board: its row counts it (fleet > rows, queue).
    await page.getByTestId("new-task-beta").fill("write the docs");
    await page.getByTestId("new-task-beta").press("Enter");
    await beta.getByTestId("glance-board").getByText(/^\d of 1 task ready/).waitFor({
      timeout: 30_000,
    });

    // Answered, the turn ends; the usage subject is scanned on the ask, so a reload reads the
    // turn's tokens into alpha's row.
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("ask-settings_write").getByTestId("generic-yes").click();
    await page.getByTestId("result").first().waitFor({ timeout: 60_000 });
    await page.goto(`${w.webUrl}#/`);
    await page.reload();
    await alpha.getByTestId("glance-seats").getByText("1 seat: 1 Idle").waitFor({
      timeout: 30_000,
    });
    assertEquals(await alpha.getByTestId("glance-asks").count(), 0);
    assertMatch((await alpha.getByTestId("glance-today").textContent())!, /^today [\d,]+ tokens/);
    await w.shot("home-glance-desk");

    // On a phone the summary wraps inside the screen rather than running off it.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = (await alpha.boundingBox())!;
    assert(box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    await w.shot("home-glance-phone");
  },
});
