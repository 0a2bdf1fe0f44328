import { webWorld } from "./web_harness.ts";

// A seat's MCP servers are its CLI's children: once the session is closed and the seat sleeps,
// none runs, though the record still holds the last report ("connected"). The page says so. The
// real CLI on the fake Messages API.
// spec: session > mcp; home > agents > lifecycle; close_session.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };

Deno.test({
  name: "web: a sleeping seat's MCP servers are drawn not running, not as last reported",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using w = await webWorld([{ name: "alpha" }], { config: "[browser]\nenabled = false\n" });
    const { page } = w;
    await page.goto(`${w.webUrl}#/seat/Acme/alpha/lead`);
    await page.getByTestId("seat-lifecycle").getByText("Idle").waitFor({ timeout: 60_000 });
    const forge = page.getByTestId("mcp").getByTestId("mcp-forge");
    await forge.getByText("connected").waitFor({ state: "attached", timeout: 60_000 });

    const c = await w.forge.ready();
    await c.command("close_session", { session_key: ALPHA });
    await page.getByTestId("seat-lifecycle").getByText("Sleeping").waitFor({ timeout: 60_000 });
    await forge.locator(".chip", { hasText: /^not running$/ }).waitFor({ state: "attached" });
    await page.getByTestId("mcp").locator("summary", { hasText: "while the seat sleeps" })
      .waitFor({ state: "attached" });
  },
});
