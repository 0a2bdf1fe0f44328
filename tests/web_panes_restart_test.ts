import { encodeTerminalInput } from "../protocol/mod.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals } from "./assert.ts";
import { output } from "./client_support.ts";
import { until } from "./seats_harness.ts";
import { type WebWorld, webWorld } from "./web_harness.ts";
import { controlVisibility, setHidden } from "./web_pwa_support.ts";

// forge restarted under an open pane: its viewer, and the person's control and pause with it, died
// with the socket (spec: terminal_control: "dropping the connection releases it"; browser_view:
// "A connection that goes is detached with it"), so the pane that attaches again gives them
// back: the terminal at the size it was drawn at, held and (on a hidden page) paused; the browser
// tab held and laid out to the canvas; control someone else took meanwhile is left to them, and
// the page says so. Real forge restarted on its port, real shell, real Chromium for both the page
// and the seat's browser. spec: terminal_view, terminal_resize,
// terminal_control, terminal_pause; browser_view, browser_control, browser_resize.

const CANVAS = "[data-testid=browser-canvas]";

/** Waits until the page reads the forge run now at the world's port and `state` holds of it. */
async function backOnNewRun(w: WebWorld, state: string): Promise<void> {
  const boot = await bootOf(w.forge.url);
  await w.page.waitForFunction(
    `(c => c.state.home?.boot_id === ${JSON.stringify(boot)} && (${state})(c.state))` +
      `(globalThis.forgeDebug.client)`,
    undefined,
    { timeout: 60_000 },
  );
}

/** The boot_id of the forge run at `url` (spec: home > boot_id): the page's socket is to it when
 * its home says the same. */
async function bootOf(url: string): Promise<string> {
  const c = await ForgeClient.connect(url, { validate: true });
  c.send({ kind: "subscribe", what: "home" });
  const home = await c.next((m) => m.kind === "snapshot" && m.subject === "home", 30_000);
  await c.close();
  return (home.data as { boot_id: string }).boot_id;
}

Deno.test({
  name: "web: a terminal pane comes back after forge restarts at its size, held, paused",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "term", autoStart: false }]);
    const { page } = w;
    await controlVisibility(page);
    await page.goto(`${w.webUrl}#/seat/Acme/term/lead/terminal`);
    const control = page.getByTestId("terminal-control");
    await control.getByText("The agent has control").waitFor({ timeout: 30_000 });
    await page.getByTestId("take-control").click();
    await control.getByText("You have control").waitFor();
    await page.getByTestId("terminal-size").selectOption("120x36");
    await page.waitForFunction(
      "globalThis.forgeDebug.client.state.seat.terminal?.cols === 120",
      undefined,
      { timeout: 30_000 },
    );

    // The page goes to the background, and forge restarts under it.
    await setHidden(page, true);
    await w.restartForge();
    await backOnNewRun(
      w,
      "(s) => s.terminal !== null && s.terminal.controller === s.terminal.viewer",
    );
    await control.getByText("You have control").waitFor();
    // Drawn at the size it had, and the new shell runs at it.
    await page.waitForFunction(
      `document.querySelector(".xterm-rows").children.length === 36 && ` +
        `document.querySelector("[data-testid=terminal-size]").value === "120x36"`,
      undefined,
      { timeout: 30_000 },
    );

    // Still hidden, so paused: the person's keys land (it holds control), and another viewer
    // sees their echo while this page is written none of it.
    await page.getByTestId("xterm").click();
    await page.keyboard.type("echo hidden-$((6*7)) $(stty size | tr ' ' x)\r");
    const watcher = await ForgeClient.connect(w.forge.url, { validate: true });
    watcher.send({ kind: "terminal_view", seat: w.world.lead("term") });
    const view = await watcher.next((m) => m.kind === "terminal_view", 30_000);
    const id = view.id as number;
    const seen = () => `${view.screen}${output(watcher, id, new Set())}`;
    await until(() => /hidden-42 36x120/.test(seen()), 30_000, "the echo, seen by another");
    const rows = page.locator(".xterm-rows");
    assertEquals(/hidden-42/.test((await rows.textContent())!), false, "a paused pane was written");
    await watcher.close();
    assertEquals(watcher.schemaErrors, []);

    // Back in front: the resume's fresh screen draws what the pause held back.
    await setHidden(page, false);
    await page.locator(".xterm-rows", { hasText: "hidden-42 36x120" }).waitFor({
      state: "attached",
      timeout: 30_000,
    });
    await w.shot("terminal-restarted-as-it-was");
  },
});

Deno.test({
  name: "web: a browser pane comes back after forge restarts, held and laid out to its canvas",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "web", autoStart: false }]);
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/web/lead/browser`);
    await page.getByTestId("browser-start").click({ timeout: 30_000 });
    const control = page.getByTestId("browser-control");
    await control.getByText("The agent has control").waitFor({ timeout: 60_000 });
    await page.getByTestId("browser-take").click();
    await control.getByText("You have control").waitFor({ timeout: 30_000 });
    // The controller owns the layout: the page is laid out to the canvas's CSS size.
    const laidOut = `(c => c.dataset.page === ` +
      "`${Math.round(c.width / devicePixelRatio)}x${Math.round(c.height / devicePixelRatio)}`" +
      `)(document.querySelector("${CANVAS}"))`;
    await page.waitForFunction(laidOut, undefined, { timeout: 30_000 });

    // Only a frame of the new run marks the canvas again: the marks go when the socket does.
    await page.evaluate(`(() => {
      const c = globalThis.forgeDebug.client;
      const canvas = document.querySelector("${CANVAS}");
      c.store.listen(() => {
        if (c.state.link !== "open") for (const k of ["seq", "page"]) delete canvas.dataset[k];
      });
    })()`);
    await w.restartForge();
    await backOnNewRun(
      w,
      "(s) => s.browser?.view != null && s.browser.view.controller === s.browser.view.viewer",
    );
    await control.getByText("You have control").waitFor();
    await page.waitForFunction(laidOut, undefined, { timeout: 60_000 });
    assertEquals(await page.getByTestId("browser-take").textContent(), "Release control");
    await w.shot("browser-restarted-as-it-was");
  },
});

Deno.test({
  name: "web: control another took while forge was down is left to them; the page says so",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "term", autoStart: false }]);
    const { page } = w;
    // The page reaches forge only while the gate is open: a closed gate refuses its redials, so
    // another client can take the control first.
    let gate = true;
    await page.routeWebSocket(/\/socket/, (ws) => gate ? ws.connectToServer() : ws.close());
    await page.goto(`${w.webUrl}#/seat/Acme/term/lead/terminal`);
    const control = page.getByTestId("terminal-control");
    await control.getByText("The agent has control").waitFor({ timeout: 30_000 });
    await page.getByTestId("take-control").click();
    await control.getByText("You have control").waitFor();

    gate = false;
    await w.restartForge();
    const other = await ForgeClient.connect(w.forge.url, { validate: true });
    const seat = w.world.lead("term");
    other.send({ kind: "terminal_view", seat });
    const theirs = await other.next((m) => m.kind === "terminal_view", 30_000);
    const id = theirs.id as number;
    await other.sendChecked({ kind: "terminal_control", seat, id, take: true });
    gate = true;

    await backOnNewRun(w, "(s) => s.terminal !== null");
    await control.getByText(`Viewer ${theirs.viewer} has control`).waitFor({ timeout: 30_000 });
    await page.getByTestId("notices").getByText(
      `viewer ${theirs.viewer} took it meanwhile`,
      { exact: false },
    ).waitFor({ timeout: 30_000 });
    // Still theirs: their keys land.
    other.sendBinary(encodeTerminalInput(id, new TextEncoder().encode("echo theirs-$((6*7))\r")));
    await until(() => /theirs-42/.test(output(other, id, new Set())), 30_000, "their echo");
    await other.close();
    assertEquals(other.schemaErrors, []);
    await w.shot("terminal-control-taken-meanwhile");
  },
});
