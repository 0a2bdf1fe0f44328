import { chromium } from "playwright-core";
import { startFakeDesktop } from "../fixtures/desktop_notify/mod.ts";
import { startFakePushService } from "../fixtures/webpush/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { until } from "./harness.ts";
import { homeNotify, nextAsk } from "./notify_harness.ts";
import { command, seatWorld } from "./seats_harness.ts";
import { CHROMIUM, startWeb } from "./web_harness.ts";
import { fakePushService, registrationId, workerAt } from "./web_pwa_support.ts";

// A tap with no page open (docs/web.md "Notifications"): forge's push, shown by the page's push
// worker while no window of the web client is open, opens a new one on the seat when the person
// taps it. The tap is a real one: Chromium shows the notification on a desktop's notification
// server (fixtures/desktop_notify) and the server says it was clicked, as a desktop does.
// The real CLI on the fake Messages API; the push service is fixtures/webpush.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };

Deno.test({
  name: "web: a tapped push with no page open opens a window on its seat",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const push = await startFakePushService();
    await using _push = { [Symbol.asyncDispose]: () => push.stop() };
    await using desktop = await startFakeDesktop();
    const world = await seatWorld([{ name: "alpha" }]);
    await using _world = { [Symbol.asyncDispose]: () => world.dispose() };
    await Deno.writeTextFile(
      world.configPath,
      `\n[browser]\nenabled = false\n\n[notify]\nenabled = true\ncoalesce_secs = 0\n\n` +
        `[notify.webpush]\nenabled = true\nsubject = "mailto:forge@example.invalid"\n` +
        `push_hosts = ["${push.host}"]\n`,
      { append: true },
    );
    const forge = await world.startForge();
    const web = await startWeb(forge.url);
    await using _web = { [Symbol.asyncDispose]: () => web.stop() };
    // The browser's own profile: Chromium hands a desktop's click to the profile that showed the
    // notification, found by its id, which a context made over CDP (newContext) is not.
    const profile = await Deno.makeTempDir({ prefix: "forge-web-profile-" });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ["--no-sandbox"],
      env: { ...Deno.env.toObject(), DBUS_SESSION_BUS_ADDRESS: desktop.address },
      viewport: { width: 1280, height: 800 },
      bypassCSP: true, // playwright's waitForFunction evaluates a string (web_harness.ts says why)
    });
    await using _browser = {
      [Symbol.asyncDispose]: async () => {
        await context.close().catch(() => {});
        await Deno.remove(profile, { recursive: true });
      },
    };
    const origin = new URL(web.url).origin;
    const host = new URL(forge.url).host;
    const pushScope = `/push/${encodeURIComponent(host)}/`;
    await context.grantPermissions(["notifications"], { origin });
    // Another tab stays open on nothing of forge's: the browser runs, no page of forge does.
    const other = context.pages()[0] ?? await context.newPage();
    const page = await context.newPage();
    await fakePushService(page, push);
    const h = await forge.ready();
    await homeNotify(h); // the test's own connection answers; it shows no seat

    // The page subscribes to forge's pushes, then is closed.
    await page.goto(`${web.url}?validate=1`);
    await page.getByTestId("seat-Acme/alpha/lead").getByText("Idle").waitFor({ timeout: 60_000 });
    await page.waitForFunction(
      "globalThis.forgeDebug.client.state.home?.notify.subscriptions === 1",
      null,
      { timeout: 30_000 },
    );
    const pushWorker = await workerAt(context, origin, pushScope);
    await page.close();

    // An ask parks; forge's push reaches the worker, which shows it on the desktop.
    command(h, "prompt", { key: ALPHA, text: "[[script:bash]] make a file", attachments: [] });
    await nextAsk(h, ALPHA);
    await until(async () => (await push.received()).length > 0, 30_000, "forge's Web Push");
    const [got] = await push.received();
    const cdp = await context.newCDPSession(other);
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin,
      registrationId: await registrationId(cdp, `${origin}${pushScope}`),
      data: got.payload,
    });
    await until(() => desktop.shown().length > 0, 30_000, "the notification on the desktop");
    const [shown] = desktop.shown();
    // Chromium heads the body with the origin that showed it.
    assertEquals([shown.summary, shown.body], [
      "alpha/lead needs you",
      `${new URL(origin).host}\n\nBash: touch allowed.txt`,
    ]);
    assert(shown.actions.includes("default"), JSON.stringify(shown.actions));
    assertEquals(
      await pushWorker.evaluate(
        "clients.matchAll({ type: 'window', includeUncontrolled: true }).then((w) => w.length)",
      ),
      0,
      "no window of the web client is open",
    );

    // The tap: a window opens on the seat, where the ask waits and is answered.
    const opened = context.waitForEvent("page", { timeout: 30_000 });
    desktop.click(shown.id);
    const seatPage = await opened;
    await seatPage.waitForURL(`${origin}/#/@${host}/seat/Acme/alpha/lead`);
    const ask = seatPage.getByTestId("ask-permission");
    await ask.getByTestId("option-allow_once").click({ timeout: 60_000 });
    await ask.waitFor({ state: "detached", timeout: 30_000 });
    await until(() => desktop.shown()[0].closed, 30_000, "the tapped notification closed");
    assertEquals(desktop.shown().length, 1);
    await h.close();
  },
});
