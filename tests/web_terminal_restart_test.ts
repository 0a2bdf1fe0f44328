import { webWorld } from "./web_harness.ts";

// forge restarted under an open terminal pane: the page's viewer died with its socket (spec:
// browser_view, "A connection that goes is detached with it"; the terminal's is the same), so
// when the link is back the pane attaches the seat's terminal again (terminal_view with no id:
// the seat's own, opened anew on the new run), takes back the control it held and draws what the
// new shell writes. Real forge, real shell, real Chromium. spec: terminal_view, terminal_control;
// The socket > Reaching it.

Deno.test({
  name: "web: forge restarts under an open terminal pane; the pane draws the new shell",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "term", autoStart: false }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/term/lead/terminal`);
    const control = page.getByTestId("terminal-control");
    await control.getByText("The agent has control").waitFor({ timeout: 30_000 });
    await page.getByTestId("take-control").click();
    /** Runs `echo <word>-42` while holding the shell's control, waiting for the pane to draw it. */
    const echo = async (word: string) => {
      await control.getByText("You have control").waitFor({ timeout: 30_000 });
      await page.getByTestId("xterm").click();
      await page.keyboard.type(`echo ${word}-$((6*7))\r`);
      await page.locator(".xterm-rows", { hasText: `${word}-42` }).waitFor({
        state: "attached",
        timeout: 30_000,
      });
    };
    await echo("before");

    await w.restartForge();
    // The new run's attach: a terminal_view from the new shell, the control the page's again
    // (web_panes_restart_test.ts has the size and the pause too).
    await page.waitForFunction(
      `globalThis.forgeDebug.client.state.link === "open" && ` +
        `globalThis.forgeDebug.client.state.terminal !== null`,
      undefined,
      { timeout: 60_000 },
    );
    await echo("after");
    await w.shot("terminal-restarted");
  },
});
