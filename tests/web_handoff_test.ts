import { assert, assertEquals } from "./assert.ts";
import { TONE_PAGE } from "./browser_harness.ts";
import { webWorld } from "./web_harness.ts";

// The seat's browser from the page, the parts a person meets through the dock: a browser
// hand-off's Open attaches the handed page by its CDP target id (browser_view_page), a
// double-click on the picture crosses as ONE press of two clicks (the page sees one dblclick),
// Done answers the ask, and the page's own sound (kind 2) plays for the controller alone.
// spec: browser_view_page; browser_input ("a press"); respond_browser_hand_off; Binary
// messages > 2 ("The viewed tab's packets go to its controller alone").

/** A page that says, on a double-click, how many clicks it had seen by then (one request). */
const DBL_PAGE = `<!doctype html><html><head><title>dbl</title></head>
<body style="margin:0;width:100vw;height:100vh;background:#fff">dbl<script>
let clicks = 0;
document.addEventListener("click", () => clicks++);
document.addEventListener("dblclick", () => fetch("/event?what=dblclick&clicks=" + clicks));
</script></body></html>`;

function pages() {
  const events: string[] = [];
  const waiting: { what: string; done: () => void }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/event") {
      const what = url.searchParams.get("what")!;
      events.push(`${what}:${url.searchParams.get("clicks")}`);
      for (const w of waiting.filter((w) => w.what === what)) w.done();

      return new Response("ok");
    }
    const page = url.pathname === "/tone" ? TONE_PAGE : DBL_PAGE;
    return new Response(page, { headers: { "content-type": "text/html" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    events,
    /** Resolves once the page has reported `what`. */
    seen(what: string): Promise<void> {
      if (events.some((e) => e.startsWith(`${what}:`))) return Promise.resolve();
      return new Promise((done) => waiting.push({ what, done }));
    },
    stop: () => server.shutdown(),
  };
}

const tool = (name: string, input: unknown) => ({
  content: [{ type: "tool_use", name: `mcp__forge__browser_${name}`, input }],
});

Deno.test({
  name:
    "web: a hand-off's Open attaches its page; a double-click crosses as one; page sound for the controller",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const site = pages();
    try {
      await using w = await webWorld([{ name: "web" }], {
        script: () => ({
          named: {
            handoff: [
              tool("navigate", { url: `${site.url}/dbl` }),
              tool("hand_off", { reason: "double-click the page for me" }),
              { content: [{ type: "text", text: "thanks for the double-click" }] },
            ],
          },
        }),
      });
      const { page } = w;
      await page.goto(`${w.webUrl}#/seat/Acme/web/lead`);
      await page.getByTestId("composer").fill("[[script:handoff]] over to you");
      await page.getByTestId("send").click();
      const ask = page.getByTestId("ask-permission");
      const card = page.getByTestId("ask-browser_hand_off");
      for (;;) {
        const next = await Promise.race([
          card.waitFor({ timeout: 90_000 }).then(() => "card"),
          ask.waitFor({ timeout: 90_000 }).then(() => "ask"),
        ]);
        if (next === "card") break;
        await ask.getByTestId("option-allow_once").click();
        await ask.waitFor({ state: "detached" });
      }
      await card.getByText("double-click the page for me").waitFor();
      await w.shot("seat-browser-hand-off");

      // Open: the Browser tab attaches the handed page, by its target id.
      await card.getByTestId("handoff-browser-open").click();
      await page.waitForURL(/\/browser$/);
      await page.locator(".browser-tab.on", { hasText: "dbl" }).waitFor({ timeout: 60_000 });
      const canvas = page.locator("[data-testid=browser-canvas][data-seq]");
      await canvas.waitFor({ timeout: 30_000 });
      await page.getByTestId("browser-take").click();
      await page.getByTestId("browser-control").getByText("You have control").waitFor();
      await canvas.dblclick();
      await site.seen("dblclick");
      assertEquals(
        site.events,
        ["dblclick:2"],
        "one double-click after two clicks, as a page sees one",
      );

      // Done answers the ask (the dock is on the conversation).
      await page.goto(`${w.webUrl}#/seat/Acme/web/lead`);
      await card.getByTestId("handoff-browser-done").click();
      await page.getByTestId("answer").getByText("thanks for the double-click").waitFor({
        timeout: 60_000,
      });

      // Page sound: a tab playing a tone is heard by the controller; a watcher hears nothing.
      const watcher = await w.browser.newPage({ bypassCSP: true });
      await page.goto(`${w.webUrl}#/seat/Acme/web/lead/browser`);
      await page.getByTestId("browser-url").fill(`${site.url}/tone`);
      await page.getByTestId("browser-open").click();
      await page.locator(".browser-tab.on", { hasText: "tone" }).waitFor({ timeout: 60_000 });
      await watcher.goto(`${w.webUrl}#/seat/Acme/web/lead/browser`);
      await watcher.locator(".browser-tab", { hasText: "tone" }).click();
      await page.getByTestId("browser-take").click();
      await page.waitForFunction(
        "globalThis.forgeDebug.client.browser.sound.scheduled.length >= 5",
        undefined,
        { timeout: 60_000 },
      );
      const heard = await watcher.evaluate(
        "globalThis.forgeDebug.client.browser.sound.scheduled.length",
      ) as number;
      assertEquals(heard, 0, "a watcher is looking, not driving the sound");
      const sched = await page.evaluate(
        "globalThis.forgeDebug.client.browser.sound.scheduled",
      ) as { start: number; end: number }[];
      for (let i = 1; i < sched.length; i++) {
        assert(sched[i].start >= sched[i - 1].end - 1e-9, "no packet overlaps the one before");
      }
      await watcher.close();
    } finally {
      await site.stop();
    }
  },
});
