import type { Page } from "playwright-core";
import { startFakeGotify } from "../fixtures/gotify/mod.ts";
import { startFakeSlack } from "../fixtures/slack/mod.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import { texts, webWorld } from "./web_harness.ts";

// The whole board from the page: tasks (create, move, rank, assign, a verdict, an answer to a row
// waiting on the user), schedules (made, listed with their next fire, deleted), the connector
// subscriptions an agent made, and a Slack draft in the dock (declined, approved, and approved
// when Slack refuses the send, said on the seat). spec:
// What a subject carries > board; the original's task commands and respond_slack_post, its
// connector_subscriptions_changed and slack_post_pending updates.

const tool = (name: string, input: unknown) => ({
  content: [{ type: "tool_use", name: `mcp__forge__${name}`, input }],
});
const SCRIPT = {
  named: {
    rows: [
      tool("tasks__create", { subject: "Ship the notes", verify: "user", owner: "lead" }),
      tool("tasks__update", { id: "{{result.id}}", status: "completed" }),
      tool("tasks__create", {
        subject: "Pick a colour",
        status: "waiting",
        question: "Which colour?",
      }),
      tool("gotify__subscribe", { applications: ["ci"], min_priority: 5 }),
      tool("slack__subscribe", { conversations: [{ id: "C0GENERAL", mode: "all" }] }),
      { content: [{ type: "text", text: "The board is ready." }] },
    ],
    post: [
      tool("slack__post", { conversation: "C0GENERAL", text: "Deploy is green." }),
      { content: [{ type: "text", text: "Posted or not." }] },
    ],
  },
};

/**
 * Sends a prompt and allows whatever the CLI asks until `last` is drawn. A turn that does not
 * draw says where its words stopped: refused, in the page's model but not drawn, or not there.
 */
async function turn(page: Page, prompt: string, last: string, forgeLog: () => string) {
  await page.getByTestId("composer").fill(prompt);
  await page.getByTestId("send").click();
  const done = page.getByTestId("answer").getByText(last).last();
  const ask = page.getByTestId("ask-permission");
  try {
    for (;;) {
      const next = await Promise.race([
        done.waitFor({ timeout: 60_000 }).then(() => "done"),
        ask.waitFor({ timeout: 60_000 }).then(() => "ask"),
      ]);
      if (next === "done") return;
      await ask.getByTestId("option-allow_once").click();
      await ask.waitFor({ state: "detached" });
    }
  } catch (err) {
    const held = await page.evaluate(
      `JSON.stringify(globalThis.forgeDebug?.client.state.seat?.turns ?? null)` +
        `.includes(${JSON.stringify(last)})`,
    ).catch(() => "unknown");
    const refused = await page.getByTestId("prompt-refused").allTextContents();
    const log = forgeLog().trim().split("\n").slice(-15).map((l) => l.slice(0, 240)).join("\n");
    throw new Error(
      `${JSON.stringify(last)} was not drawn; the page's seat model holds it: ${held}; ` +
        `the prompt refused: ${JSON.stringify(refused)}; forge's log ends:\n${log}`,
      { cause: err },
    );
  }
}

Deno.test({
  name: "web: the board's tasks, schedules and subscriptions, and a Slack draft in the dock",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const slack = await startFakeSlack();
    const gotifyDir = await Deno.makeTempDir({ prefix: "forge-web-gotify-" });
    const gotify = await startFakeGotify(gotifyDir);
    try {
      await using w = await webWorld([{ name: "alpha" }], {
        script: () => SCRIPT,
        config: `[gotify]\nurl = "${gotify.url}"\nclient_token = "${gotify.clientToken}"\n\n` +
          `[[slack]]\nworkspace = "acme"\ntoken = "${slack.token}"\npoll_seconds = 1\n` +
          `api_url = "${slack.apiUrl}"\n`,
      });
      const { page } = w;
      await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
      await turn(page, "[[script:rows]] set the board up", "The board is ready.", w.forge.stderr);

      await page.goto(`${w.webUrl}#/board`);
      const board = page.getByTestId("board-alpha");
      const row = (subject: string) => board.locator("tr", { hasText: subject });
      // A verdict: the row in review is approved.
      await row("Ship the notes").getByTestId("task-approve").click();
      await page.waitForFunction(
        `[...document.querySelectorAll("tr")].some((tr) => tr.textContent.includes("Ship the notes")
          && tr.querySelector("select")?.value === "completed")`,
      );
      // An answer to the row waiting on the user reaches the seat that asked.
      assertMatch(
        (await row("Pick a colour").getByTestId("task-question").textContent())!,
        /Which colour\?/,
      );
      await row("Pick a colour").getByTestId("task-words").fill("Blue, please");
      await row("Pick a colour").getByTestId("task-answer").click();
      await row("Pick a colour").getByTestId("task-question").waitFor({
        state: "detached",
        timeout: 30_000,
      });

      // Create two, rank the second above the first, move and assign one.
      for (const subject of ["Write the docs", "Write the tests"]) {
        await page.getByTestId("new-task-alpha").fill(subject);
        await page.getByTestId("new-task-alpha").press("Enter");
        await row(subject).waitFor({ timeout: 30_000 });
      }
      const order = async () =>
        (await texts(page, "[data-testid=board-alpha] tr td:nth-child(2)")).filter((t) =>
          t.startsWith("Write the")
        );
      assertEquals(await order(), ["Write the docs", "Write the tests"]);
      await row("Write the tests").getByTestId("task-up").click();
      await page.waitForFunction(
        `[...document.querySelectorAll("[data-testid=board-alpha] tr")]
          .map((tr) => tr.children[1]?.textContent ?? "")
          .filter((t) => t.startsWith("Write the"))[0] === "Write the tests"`,
      );
      await row("Write the docs").getByTestId("task-status").selectOption("in_progress");
      await row("Write the docs").getByTestId("task-owner").fill("lead");
      await row("Write the docs").getByTestId("task-assign").click();
      await row("Write the docs").locator("td", { hasText: /^lead$/ }).waitFor({ timeout: 30_000 });
      assertEquals(
        await row("Write the docs").getByTestId("task-status").inputValue(),
        "in_progress",
      );

      // Schedules: one made here, with its next fire; a bad one refused in forge's words; deleted.
      const schedules = page.getByTestId("schedules-alpha");
      await schedules.getByTestId("cron-prompt").fill("look at the board");
      await schedules.getByTestId("cron-when").fill("61 * * * *");
      await schedules.getByTestId("cron-create").click();
      const refusal = page.getByTestId("notices").locator(".notice", { hasText: "cron_create" });
      await refusal.waitFor({ timeout: 30_000 });
      // Said once, in forge's words: the field and what it takes, no engine message; its
      // backticked names drawn as code, not as backticks.
      assertEquals(
        await refusal.textContent(),
        "cron_create: schedule: 61 * * * * is not a 5-field cron expression: the minute " +
          "field 61 cannot be read: it takes 0-59, a range a-b, a list a,b or a step */n✕",
      );
      assertEquals(await refusal.locator("code").allTextContents(), ["61 * * * *", "61"]);
      // A day the calendar does not have is said under the form, and nothing is sent.
      await schedules.getByTestId("cron-when").fill("2027-02-30T09:00");
      await schedules.getByTestId("cron-create").click();
      assertMatch(
        (await schedules.getByTestId("cron-refused").textContent())!,
        /2027-02-30T09:00 is not a date and time on the calendar/,
      );
      assertEquals(
        await schedules.getByTestId("cron-refused").locator("code").first().textContent(),
        "2027-02-30T09:00",
      );
      await schedules.getByTestId("cron-when").fill("*/30 * * * *");
      await schedules.getByTestId("cron-description").fill("half-hourly look");
      await schedules.getByTestId("cron-create").click();
      const entry = schedules.locator("li", { hasText: "half-hourly look" });
      await entry.waitFor({ timeout: 30_000 });
      assertMatch((await entry.getByTestId("cron-next").textContent())!, /^next \d/);
      assertMatch((await entry.textContent())!, /\*\/30 \* \* \* \*.*by you/);
      await entry.getByTestId("cron-delete").click();
      await entry.waitFor({ state: "detached", timeout: 30_000 });

      // The subscriptions the agent made, drawn from the board's connector sets.
      const subs = page.getByTestId("subscriptions-alpha");
      assertMatch((await subs.getByTestId("sub-gotify").textContent())!, /ci at priority ≥ 5/);
      assertMatch(
        (await subs.getByTestId("sub-slack").textContent())!,
        /acme → lead: C0GENERAL \(all\)/,
      );
      await w.shot("board");

      // A Slack draft in the dock: declined (nothing sent), then approved (posted).
      await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
      for (const approve of [false, true]) {
        await page.getByTestId("composer").fill("[[script:post]] say it");
        await page.getByTestId("send").click();
        const card = page.getByTestId("ask-slack_post");
        await card.waitFor({ timeout: 60_000 });
        assertEquals(await card.getByTestId("slack-part").textContent(), "Deploy is green.");
        if (approve) await w.shot("seat-slack-draft");
        await card.getByTestId(approve ? "slack-approve" : "slack-decline").click();
        await card.waitFor({ state: "detached", timeout: 30_000 });
        await page.getByTestId("answer").getByText("Posted or not.").nth(approve ? 1 : 0)
          .waitFor({ timeout: 60_000 });
      }
      const posts = (await slack.calls()).filter((x) => x.method === "chat.postMessage");
      assertEquals(posts.map((p) => p.params.text), ["Deploy is green."]);

      // Approved, but Slack refuses the send: the card leaves and the seat says why, in forge's
      // words (slack_draft_resolved's `failure`), instead of looking posted.
      await slack.failAfter("chat.postMessage", 0, "channel_not_found");
      await page.getByTestId("composer").fill("[[script:post]] say it once more");
      await page.getByTestId("send").click();
      const card = page.getByTestId("ask-slack_post");
      await card.getByTestId("slack-approve").click({ timeout: 60_000 });
      await card.waitFor({ state: "detached", timeout: 30_000 });
      const failed = page.getByTestId("seat-notice").filter({ hasText: "slack_post: " });
      await failed.waitFor({ timeout: 30_000 });
      // The words are the connector's own (forge's, never Slack's library's), naming Slack's
      // reason; the page draws them.
      assertMatch(
        (await failed.textContent())!,
        /slack_post: .*Slack \(\S+\) refused chat\.postMessage: channel_not_found/,
      );
    } finally {
      await slack.stop();
      await gotify.stop();
      await Deno.remove(gotifyDir, { recursive: true }).catch(() => {});
    }
  },
});
