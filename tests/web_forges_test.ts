import { assert, assertEquals, assertMatch } from "./assert.ts";
import { seatWorld } from "./seats_harness.ts";
import { webWorld } from "./web_harness.ts";

// Several forges in one page (docs/web.md "Several forges"): a forge added by its address on the
// forges page and kept across a reload; one socket each; every row and seat names its forge,
// the rail groups by forge and the header adds their totals; an ask is answered on each; a
// forge killed is drawn down and stale while the other streams on and its asks are answered; an
// error frame from any forge is drawn in that forge's own part of the home.
// spec: The socket > The connection is kept alive by a ping (each socket's reconnect rule).

Deno.test({
  name: "web: two forges in one page; one killed goes stale while the other streams on",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // No service worker: a page it serves after the reload below keeps the page's CSP even
    // under the harness's bypassCSP, and playwright's waits then never see the page settle.
    // The worker itself is tested in web_phone_test.ts and web_notify_test.ts.
    await using w = await webWorld([{ name: "alpha" }], { device: { serviceWorkers: "block" } });
    await using other = await seatWorld([{ name: "gamma" }]);
    const second = await other.startForge();
    const { page } = w;
    const [a, b] = [new URL(w.forge.url).host, new URL(second.url).host];

    // One forge named in the address; the second added on the forges page by host:port.
    await page.goto(`${w.webUrl}&forge=${encodeURIComponent(w.forge.url)}#/forges`);
    await page.getByTestId("forge-address").fill(b);
    await page.getByTestId("forge-add").click();
    await page.getByTestId(`forge-row-${b}`).getByText("open").waitFor({ timeout: 30_000 });
    // Kept: in the address this tab was opened with, and in the browser for the next one.
    await page.reload();
    await page.evaluate(`location.hash = "#/"`);
    const sectionA = page.getByTestId(`forge-${a}`);
    const sectionB = page.getByTestId(`forge-${b}`);
    await sectionA.getByTestId("seat-Acme/alpha/lead").getByText("Idle").waitFor({
      timeout: 60_000,
    });
    await sectionB.getByTestId("seat-Acme/gamma/lead").getByText("Idle").waitFor({
      timeout: 60_000,
    });
    assertEquals(
      JSON.parse(await page.evaluate(`localStorage.getItem("forge.forges")`) as string),
      [w.forge.url, `ws://${b}/socket`],
    );
    // Every row names its forge; the rail groups by forge; the totals add both forges up.
    assertEquals(await sectionA.getByTestId("row-forge").allTextContents(), [a]);
    assertEquals(await sectionB.getByTestId("row-forge").allTextContents(), [b]);
    await page.getByTestId(`rail-forge-${b}`).getByTestId("rail-Acme/gamma/lead").waitFor();
    assert(
      (await page.getByTestId("totals").textContent())!.startsWith(
        "2 forges · 2 seats · 2 live · 0 waiting · today ",
      ),
    );
    await w.shot("forges-two");

    // An ask answered on the second forge, from its seat (opened from its rail group).
    await page.getByTestId(`rail-forge-${b}`).getByTestId("rail-Acme/gamma/lead").click();
    await page.getByTestId("seat-forge").getByText(b).waitFor();
    await allowABash(page);
    await Deno.stat(`${other.projectDir("gamma")}/allowed.txt`);

    // An error frame from the second forge is drawn in that forge's own part of the home: a task
    // filed on a board whose file was damaged is refused in forge's words, there and only there.
    const board = `${other.dir}/forge/state/board/Acme/gamma`;
    await Deno.mkdir(board, { recursive: true });
    await Deno.writeTextFile(`${board}/tasks.json`, "{ not a task list");
    await page.evaluate(`location.hash = "#/"`);
    await sectionB.getByTestId("new-task-gamma").fill("a task for a damaged board");
    await sectionB.getByTestId("new-task-gamma").press("Enter");
    const refusal = sectionB.getByTestId("notices").locator(".notice", { hasText: "task_create" });
    await refusal.waitFor({ timeout: 30_000 });
    assertMatch((await refusal.textContent())!, /^task_create: gamma's board cannot be changed: /);
    assertEquals(await sectionA.getByTestId("notices").count(), 0);
    // The file removed, the next task lands; the refusal is put away in its own part.
    await Deno.remove(`${board}/tasks.json`);
    await sectionB.getByTestId("new-task-gamma").fill("a task for a mended board");
    await sectionB.getByTestId("new-task-gamma").press("Enter");
    await sectionB.getByTestId("board-gamma").getByText("a task for a mended board").waitFor({
      timeout: 30_000,
    });
    await refusal.locator(".dismiss").click();
    await sectionB.getByTestId("notices").waitFor({ state: "detached" });

    // The second forge killed: its part of the home and its rail group are down and stale,
    // its rows still drawn as they were; the first streams on and its ask is answered.
    await second.stop();
    await page.evaluate(`location.hash = "#/"`);
    await sectionB.getByTestId("forge-link").getByText("down").waitFor({ timeout: 30_000 });
    assert((await sectionB.getAttribute("class"))!.includes("stale"));
    await sectionB.getByTestId("stale").getByText(`Disconnected from forge at ws://${b}/socket`)
      .waitFor();
    await sectionB.getByTestId("seat-Acme/gamma/lead").waitFor();
    await page.getByTestId(`rail-forge-${b}`).getByText("down").waitFor();
    assertEquals(await sectionA.getByTestId("forge-link").textContent(), "open");
    assert((await page.getByTestId("totals").textContent())!.startsWith("2 forges (1 down) · "));
    await w.shot("forges-one-down");

    await page.getByTestId(`rail-forge-${a}`).getByTestId("rail-Acme/alpha/lead").click();
    await page.getByTestId("composer").fill("[[script:slow]] count for me");
    await page.getByTestId("send").click();
    await page.locator(".answer.streaming").waitFor({ timeout: 30_000 });
    await page.getByTestId("result").first().waitFor({ timeout: 30_000 });
    await allowABash(page);
    await Deno.stat(`${w.world.projectDir("alpha")}/allowed.txt`);
    const railB = page.getByTestId(`rail-forge-${b}`);
    assertEquals(await railB.getByTestId("forge-link").textContent(), "down");
  },
});

/** Prompts the seat on screen to run a Bash call and allows it from the dock. */
async function allowABash(page: import("playwright-core").Page): Promise<void> {
  await page.getByTestId("composer").fill("[[script:bash]] make the file");
  await page.getByTestId("send").click();
  const ask = page.getByTestId("ask-permission");
  await ask.getByTestId("option-allow_once").click({ timeout: 60_000 });
  await ask.waitFor({ state: "detached", timeout: 30_000 });
  await page.getByText("created it").last().waitFor({ timeout: 30_000 });
}
