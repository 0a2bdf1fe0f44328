import type { Locator } from "playwright-core";
import { assert, assertEquals } from "./assert.ts";
import { exists, git } from "./harness.ts";
import { onScreen, PHONE, webWorld } from "./web_harness.ts";

// What a thumb must reach on a phone (docs/web.md "On a phone"), at 390 x 844 with touch: a
// prompt of several lines (Return writes a new line, Send sends), a permission ask read whole
// and allowed as edited, a seat's marks and a greyed Dictate in words, an answered question read
// back as its answers, a diff line opened for a comment with a tap on its words, a board row's
// ranking and Assign inside the screen, and Settings' Save in view beside the last key.

/** Whether the element is wider inside than its box (its content is clipped or panned). */
function clipped(what: Locator): Promise<boolean> {
  return what.evaluate((el) => el.scrollWidth > el.clientWidth);
}

Deno.test({
  name: "web: on a phone a thumb writes lines, edits an ask, comments, ranks and saves",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      device: PHONE,
      before: async (world) => {
        const dir = world.projectDir("alpha");
        const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
        git(dir, "init", "-q", "-b", "main");
        await Deno.writeTextFile(`${dir}/notes.txt`, lines.join("\n") + "\n");
        git(dir, "add", "notes.txt");
        git(dir, "commit", "-q", "-m", "first");
        lines[4] = "line five, changed on a phone";
        await Deno.writeTextFile(`${dir}/notes.txt`, lines.join("\n") + "\n");
      },
    });
    const { page } = w;
    const dir = w.world.projectDir("alpha");
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });
    assertEquals(await page.evaluate(`matchMedia("(pointer: coarse)").matches`), true);

    // Return writes a new line; the hint says so; Send sends the lines.
    const composer = page.getByTestId("composer");
    assert(!(await composer.getAttribute("placeholder"))!.includes("Shift"));
    await composer.tap();
    await page.keyboard.type("[[script:bash]] make the file");
    await page.keyboard.press("Enter");
    await page.keyboard.type("and say when it is made");
    assertEquals(
      await composer.inputValue(),
      "[[script:bash]] make the file\nand say when it is made",
    );
    await page.getByTestId("send").tap();

    // The ask draws the command, wrapped inside the card, and offers the CLI's edit answer.
    const ask = page.getByTestId("ask-permission");
    await ask.waitFor({ timeout: 60_000 });
    const input = ask.getByTestId("ask-input");
    await input.getByTestId("tool-bash").getByText("touch allowed.txt").waitFor();
    assertEquals(await clipped(input.locator("pre")), false, "the command is panned sideways");
    // A seat's marks say what they mean without hover: the menu's row says what it waits on,
    // and the greyed Dictate says why.
    await page.getByTestId("menu").tap();
    await page.getByTestId("rail-Acme/alpha/lead").getByText("waiting on you: permission")
      .waitFor({ timeout: 30_000 });
    await page.getByTestId("menu").tap();
    assertEquals(await page.getByTestId("mic-why").isVisible(), true);
    assertEquals(await page.getByTestId("mic-button").isDisabled(), true);

    await ask.getByTestId("option-allow_with_edits").tap();
    const edit = ask.getByTestId("ask-edit");
    assertEquals(await edit.inputValue(), "touch allowed.txt");
    await edit.fill("touch edited.txt");
    await ask.getByTestId("option-allow_with_edits").tap();
    await ask.waitFor({ state: "detached", timeout: 30_000 });
    await page.getByTestId("result").first().waitFor({ timeout: 60_000 });
    await Deno.stat(`${dir}/edited.txt`);
    assertEquals(exists(`${dir}/allowed.txt`), false, "the call ran as it was, not as edited");
    await w.shot("phone-reach-edited");

    // An answered question reads back as its questions and the answers chosen, inside the screen.
    await composer.fill("[[script:ask]] pick for me");
    await page.getByTestId("send").tap();
    const questions = page.getByTestId("ask-question");
    await questions.nth(1).waitFor({ timeout: 30_000 });
    await questions.first().getByLabel("Blue").tap();
    await questions.first().getByTestId("answer").tap();
    await page.getByTestId("dock").getByText("Which sizes?").waitFor();
    await questions.first().getByLabel("Small").tap();
    await questions.first().getByLabel("Large").tap();
    await questions.first().getByTestId("answer").tap();
    const asked = page.getByTestId("tool-question");
    await asked.getByTestId("asked-answer").getByText("Small, Large").waitFor({ timeout: 30_000 });
    assertEquals(await asked.getByTestId("asked-answer").allTextContents(), [
      "Blue",
      "Small, Large",
    ]);
    assertEquals(await clipped(asked), false, "the answers are panned sideways");
    await w.shot("phone-reach-answered");

    // Review: a tap on a changed line's words opens its comment box.
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead/review`);
    const line = page.getByTestId("file-notes.txt").getByText("line five, changed on a phone");
    await line.waitFor({ timeout: 30_000 });
    await line.tap();
    await page.getByTestId("comment-form").locator("textarea").waitFor();
    await w.shot("phone-reach-comment");

    // Board: two tasks; every row's ranking and Assign lie inside the screen and answer a tap.
    await page.goto(`${w.webUrl}#/board`);
    for (const subject of ["Write the docs", "Write the tests"]) {
      await page.getByTestId("new-task-alpha").fill(subject);
      await page.getByTestId("new-task-alpha").press("Enter");
      await page.getByTestId("board-alpha").getByText(subject).waitFor({ timeout: 30_000 });
    }
    const board = page.getByTestId("board-alpha");
    assertEquals(await clipped(board), false, "the board is panned sideways");
    const row = (subject: string) => board.locator("tr", { hasText: subject });
    const tests = row("Write the tests");
    await tests.getByRole("button", { name: "Move up one" }).scrollIntoViewIfNeeded();
    await onScreen(page, tests.getByRole("button", { name: "Move up one" }), "up one");
    await onScreen(page, tests.getByTestId("task-assign"), "Assign");
    await tests.getByRole("button", { name: "Move up one" }).tap();
    await board.locator("tr").first().getByText("Write the tests").waitFor({ timeout: 30_000 });
    const docs = row("Write the docs");
    await docs.getByTestId("task-owner").fill("lead");
    await docs.getByTestId("task-assign").scrollIntoViewIfNeeded();
    await onScreen(page, docs.getByTestId("task-assign"), "Assign");
    await docs.getByTestId("task-assign").tap();
    await docs.locator("td", { hasText: /^lead$/ }).waitFor({ timeout: 30_000 });
    await w.shot("phone-reach-board");

    // Settings: the last number key far down the page edited; Save is in view beside it.
    await page.goto(`${w.webUrl}#/settings`);
    const last = page.locator(".settings .key input[type=number]").last();
    await last.waitFor({ timeout: 30_000 });
    await last.scrollIntoViewIfNeeded();
    await last.fill("7");
    await last.press("Tab");
    const save = page.getByTestId("save");
    assertEquals(await save.isEnabled(), true);
    await onScreen(page, save, "Save");
    await w.shot("phone-reach-settings");
  },
});
