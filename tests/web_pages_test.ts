import { startFakeStatusPage } from "../fixtures/statuspage/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { webWorld } from "./web_harness.ts";

// The terminal, settings, board and usage pages in a real browser; the status page's outage on
// the home and a connector's own error on the board page. spec: terminal_view, terminal_control,
// kinds 4 and 5; Editing the config (settings_saved, settings_refused "in the server's words",
// the reload push); usage; home > service_status, connectors.

Deno.test({
  name:
    "web: terminal control, a setting saved, a task filed, usage; an outage and a connector error",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // A status page in an outage; Gotify pointed at a server that is not Gotify (its API paths
    // answer 404), so the connector holds an error of its own.
    const status = startFakeStatusPage();
    status.set("major", "Elevated errors on the API");
    try {
      await using w = await webWorld([{ name: "term", autoStart: false }], {
        before: async (world) => {
          const text = await Deno.readTextFile(world.configPath);
          await Deno.writeTextFile(
            world.configPath,
            text.replace('status_url = ""', `status_url = "${status.url}"`),
          );
        },
        config: `[gotify]\nurl = "${new URL(status.url).origin}"\nclient_token = "not-gotify"\n`,
      });
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
      // The status page's outage, on the home.
      assertEquals(
        await page.getByTestId("service-status").textContent(),
        "Service status (major): Elevated errors on the API",
      );

      // The board page's liveness line carries Gotify's own error, as the home holds it.
      await page.goto(`${w.webUrl}#/board`);
      const liveness = page.getByTestId("connector-liveness");
      await liveness.getByText(/^Gotify not connected: /).waitFor({ timeout: 30_000 });
      const gotifyError = await page.evaluate(
        "globalThis.forgeDebug.client.state.home.connectors.gotify.error",
      ) as string;
      assert(gotifyError, "the home holds Gotify's error");
      assert((await liveness.textContent())!.includes(gotifyError), gotifyError);

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
    } finally {
      await status.close();
    }
  },
});
