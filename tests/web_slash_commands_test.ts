import { assert, assertEquals } from "./assert.ts";
import { PHONE, webWorld } from "./web_harness.ts";
import { sideways } from "./web_pwa_support.ts";

// The CLI's slash commands in the composer: a "/" offers what the seat's CLI advertises (its
// built-ins and the project's own `.claude/commands/`), narrowed by typing, picked with the
// keyboard at a desk and with a tap on a phone, and sent as the prompt's text, which the CLI
// runs (a project command's body reaches the model). spec: session > slash_commands; the
// original's slash_command_error is absent because forge hands the CLI the prompt's text.

const BODY = "Please greet the web page warmly.";

Deno.test({
  name: "web: the composer offers the CLI's slash commands; a picked one runs",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], {
      before: async (world) => {
        const dir = `${world.projectDir("alpha")}/.claude/commands`;
        await Deno.mkdir(dir, { recursive: true });
        await Deno.writeTextFile(
          `${dir}/greet.md`,
          `---\ndescription: Greet the web page\n---\n${BODY}\n`,
        );
      },
    });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    const box = page.getByTestId("composer");
    await box.waitFor({ timeout: 60_000 });
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });

    // A "/" offers the CLI's commands: a built-in and the project's own, with what it does.
    await box.click();
    await page.keyboard.type("/");
    const list = page.getByTestId("slash-list");
    await list.getByTestId("slash-greet").waitFor({ timeout: 30_000 });
    // Arrows move the mark round the rows: the last row from the first is one press up.
    const rows = list.getByRole("option");
    const count = await rows.count();
    assert(count > 10, `${count} commands offered`);
    await page.keyboard.press("ArrowUp");
    assertEquals(await rows.nth(count - 1).getAttribute("aria-selected"), "true");
    await page.keyboard.press("ArrowDown");
    assertEquals(await rows.nth(0).getAttribute("aria-selected"), "true");
    // Typing narrows the list to the names that hold what is typed.
    await page.keyboard.type("comp");
    await list.getByTestId("slash-compact").waitFor();
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("gre");
    await list.getByTestId("slash-greet").getByText("Greet the web page").waitFor();
    assert(!(await list.getByTestId("slash-compact").isVisible()), "compact still offered");
    await w.shot("slash-commands");
    // Escape closes the list and leaves the words; a key that moves the text opens it again.
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    assertEquals(await box.inputValue(), "/gre");
    await page.keyboard.press("Backspace");
    await list.getByTestId("slash-greet").waitFor();
    // Enter picks the marked row (it does not send the half-typed name), Enter then sends it.
    await page.keyboard.press("Enter");
    assertEquals(await box.inputValue(), "/greet ");
    await list.waitFor({ state: "detached" });
    await page.keyboard.press("Enter");
    // The CLI ran the command: its body is what reached the model, answered by the fake API.
    await page.getByTestId("answer").getByText(`Echo: ${BODY}`).waitFor({ timeout: 60_000 });

    // On a phone the list is tapped.
    const phone = await w.browser.newPage({ ...PHONE, bypassCSP: true });
    await phone.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    const thumbBox = phone.getByTestId("composer");
    await thumbBox.tap({ timeout: 60_000 });
    await phone.keyboard.type("/g");
    // The open list stays inside the phone's width, its rows wrapped rather than scrolled to.
    await phone.getByTestId("slash-greet").waitFor();
    assertEquals(await sideways(phone), [], "the slash list scrolls sideways");
    await phone.getByTestId("slash-greet").tap();
    assertEquals(await thumbBox.inputValue(), "/greet ");
    await phone.getByTestId("send").tap();
    await phone.getByTestId("answer").nth(1).getByText(`Echo: ${BODY}`).waitFor({
      timeout: 60_000,
    });
    await phone.close();
  },
});
