import { assert, assertMatch } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// The terminal, settings, board and usage pages in a real browser. spec: terminal_view,
// terminal_control, kinds 4 and 5; Editing the config (settings_saved, settings_refused "in the
// server's words", the reload push); usage.

Deno.test({
  name: "web: type in the terminal after taking control; save a setting; file a task; read usage",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "term", autoStart: false }]);
    const { page } = w;

    // Terminal: the seat's shell, watched until this page takes control, then typed into.
    await page.goto(`${w.webUrl}#/seat/Acme/term/lead/terminal`);
    const control = page.getByTestId("terminal-control");
    await control.getByText("The agent has control").waitFor({ timeout: 30_000 });
    await page.getByTestId("xterm").click();
    await page.keyboard.type("echo typed-before-control\r");
    await page.getByTestId("take-control").click();
    await control.getByText("You have control").waitFor();
    await page.getByTestId("xterm").click();
    await page.keyboard.type("echo web-$((6*7))\r");
    await page.locator(".xterm-rows", { hasText: "web-42" }).waitFor({
      state: "attached",
      timeout: 30_000,
    });
    const screen = (await page.locator(".xterm-rows").textContent())!;
    assert(
      !screen.includes("typed-before-control"),
      "keys typed without control never reach the shell",
    );
    await w.shot("terminal");

    // Settings: an invalid value is refused in the loader's own words; a valid one is saved,
    // written to the file, and the pushed document draws it.
    await page.goto(`${w.webUrl}#/settings`);
    const port = page.getByTestId("key-server.port").locator("input");
    await port.fill("0");
    await port.blur();
    await page.getByTestId("save").click();
    const answer = page.getByTestId("save-answer");
    await answer.waitFor();
    assertMatch((await answer.textContent())!, /^invalid: .*server\.port/);
    await port.fill("9123");
    await port.blur();
    await page.getByTestId("save").click();
    await answer.getByText("Saved.").waitFor();
    assertMatch(await Deno.readTextFile(w.world.configPath), /port = 9123/);
    // The draft is cleared and the row draws the pushed document's value.
    await page.waitForFunction(
      `document.querySelector('[data-testid="key-server.port"]:not(.dirty) input')?.value === "9123"`,
    );
    await w.shot("settings");

    // The board on the home: a task filed from the page appears on the project's board.
    await page.goto(`${w.webUrl}#/`);
    await page.getByTestId("new-task-term").fill("write the web client's note");
    await page.getByTestId("new-task-term").press("Enter");
    const board = page.getByTestId("board-term");
    await board.getByText("write the web client's note").waitFor({ timeout: 30_000 });
    assert((await board.textContent())!.includes("unowned"));
    assertMatch((await page.getByTestId("usage-glance").textContent())!, /^today \d+ tokens/);

    // Usage: the windows by model and by project.
    await page.goto(`${w.webUrl}#/usage`);
    await page.getByTestId("usage-today").waitFor({ timeout: 30_000 });
    await page.getByTestId("usage-lifetime").waitFor();
    await w.shot("usage");

    // Models, with [dictate] and [tts] off: the page says why there is nothing, not "Reading".
    await page.goto(`${w.webUrl}#/models`);
    const refused = page.getByTestId("models-refused");
    await refused.waitFor({ timeout: 30_000 });
    assertMatch(
      (await refused.textContent())!,
      /^No models page: \[dictate\] and \[tts\] are both off/,
    );
  },
});
