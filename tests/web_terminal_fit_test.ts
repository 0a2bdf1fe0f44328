import { assert, assertEquals } from "./assert.ts";
import { PHONE, webWorld } from "./web_harness.ts";
import { sideways } from "./web_pwa_support.ts";

// A seat's terminal on a phone: at 390 x 844 the person picks "Fit screen", the page measures
// its cells and sends terminal_resize, and the shell itself (`stty size` in the real PTY) reports
// the fitted size - narrower than any fixed choice, and drawn without scrolling sideways.
// spec: terminal_resize, terminal_changed.

Deno.test({
  name: "web: a phone fits the seat's terminal to its screen; the shell reports that size",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "term", autoStart: false }], { device: PHONE });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/term/lead/terminal`);
    const control = page.getByTestId("terminal-control");
    await control.getByText("The agent has control").waitFor({ timeout: 60_000 });
    await page.getByTestId("take-control").tap();
    await control.getByText("You have control").waitFor();

    const opened = await page.getByTestId("terminal-size").inputValue();
    await page.getByTestId("terminal-size").selectOption("fit");
    // The server's own word on the size (terminal_changed), not the page's choice.
    await page.waitForFunction(
      "(globalThis.forgeDebug.client.state.seat.terminal?.cols ?? 80) < 80",
      undefined,
      { timeout: 30_000 },
    );
    const told = await page.evaluate(
      "(({ cols, rows }) => ({ cols, rows }))(globalThis.forgeDebug.client.state.seat.terminal)",
    ) as { cols: number; rows: number };

    // The PTY took it: the shell reads its size off the terminal it runs on.
    await page.getByTestId("xterm").click();
    await page.keyboard.type("echo size-$(stty size | tr ' ' x)\r");
    const said = page.locator(".xterm-rows", { hasText: /size-\d+x\d+/ });
    await said.waitFor({ state: "attached", timeout: 30_000 });
    const [rows, cols] = /size-(\d+)x(\d+)/.exec((await said.textContent())!)!.slice(1).map(Number);
    assertEquals({ cols, rows }, told);
    assert(cols >= 20 && cols < 80, `${cols} columns on a 390 px screen`);
    assert(rows >= 5, `${rows} rows`);

    // Every cell is on the screen: the drawn terminal ends inside the page's width.
    const screen = (await page.locator(".xterm-screen").boundingBox())!;
    assert(screen.x + screen.width <= 390, `the terminal ends at ${screen.x + screen.width}`);
    assertEquals(await sideways(page), [], "the terminal page scrolls sideways");
    await w.shot("phone-terminal-fit");

    // Back to a fixed size, the one the terminal was opened at: the page measures against the
    // size the server last said, so this resize is sent rather than taken as already done.
    await page.getByTestId("terminal-size").selectOption(opened);
    await page.getByTestId("xterm").click();
    await page.keyboard.type("echo again-$(stty size | tr ' ' x)\r");
    const again = page.locator(".xterm-rows", { hasText: /again-\d+x\d+/ });
    await again.waitFor({ state: "attached", timeout: 30_000 });
    const back = /again-(\d+)x(\d+)/.exec((await again.textContent())!)!.slice(1).reverse();
    assertEquals(back.join("x"), opened);
  },
});
