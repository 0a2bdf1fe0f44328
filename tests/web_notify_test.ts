import { startFakePushService } from "../fixtures/webpush/mod.ts";
import { NotifyPushPayload, type PermissionOutcome } from "../protocol/mod.ts";
import { assertEquals } from "./assert.ts";
import { until } from "./harness.ts";
import { homeNotify, nextAsk } from "./notify_harness.ts";
import { command } from "./seats_harness.ts";
import { webWorld } from "./web_harness.ts";
import {
  controlVisibility,
  dismissAll,
  fakePushService,
  notificationsAt,
  recordBadges,
  recordShown,
  recordShownIn,
  registrationId,
  setHidden,
  shownBy,
  tap,
  workerAt,
} from "./web_pwa_support.ts";

// The page calls its person (docs/web.md "Notifications"; docs/notify.md "When", "Web Push"):
// it subscribes to Web Push through a service worker of its own with the VAPID key home carries;
// forge's push, delivered to that worker, is shown and a tap opens the seat; a hidden page raises
// a notification for a parked ask by forge's rules, and none for the seat it shows and answers.
// The real CLI on the fake Messages API; the push service is fixtures/webpush.

const ALPHA = { org: "Acme", project: "alpha", label: "lead" };
const BETA = { org: "Acme", project: "beta", label: "lead" };
const ALLOW: PermissionOutcome = {
  outcome: "selected",
  option_id: "allow_once",
  action: { kind: "allow" },
};

Deno.test({
  name: "web: a push shows and a tap opens its seat; a hidden page calls, but not for its seat",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const push = await startFakePushService();
    await using _push = { [Symbol.asyncDispose]: () => push.stop() };
    await using w = await webWorld([{ name: "alpha" }, { name: "beta" }], {
      config: `[browser]\nenabled = false\n\n[notify]\nenabled = true\ncoalesce_secs = 0\n\n` +
        `[notify.webpush]\nenabled = true\nsubject = "mailto:forge@example.invalid"\n` +
        `push_hosts = ["${push.host}"]\n`,
    });
    const { page } = w;
    const origin = new URL(w.webUrl).origin;
    const host = new URL(w.forge.url).host;
    const pushScope = `/push/${encodeURIComponent(host)}/`;
    await page.context().grantPermissions(["notifications"], { origin });
    await controlVisibility(page);
    await recordBadges(page);
    await recordShown(page);
    await fakePushService(page, push);
    const h = await w.forge.ready();
    // The test's own connection hears the asks (home, answering; it shows no seat).
    await homeNotify(h);

    await page.goto(w.webUrl);
    for (const seat of ["alpha", "beta"]) {
      await page.getByTestId(`seat-Acme/${seat}/lead`).getByText("Idle").waitFor({
        timeout: 60_000,
      });
    }
    // The page subscribed with home's key: forge holds one subscription, made by the push
    // service for that key (the fake refuses a push whose VAPID key is not the one it was made
    // with, so the push received below proves it).
    await page.waitForFunction(
      "globalThis.forgeDebug.client.state.home?.notify.subscriptions === 1",
      null,
      { timeout: 30_000 },
    );
    await page.goto(`${w.webUrl}#/forges`);
    await page.getByTestId("forge-push").getByText("subscribed").waitFor();

    // A parked ask while the page is on screen elsewhere: forge pushes; the push, delivered to
    // the page's push worker, shows under the seat's tag. The visible page raises none itself.
    await page.goto(`${w.webUrl}#/`);
    command(h, "prompt", { key: ALPHA, text: "[[script:bash]] make a file", attachments: [] });
    await nextAsk(h, ALPHA);
    await until(async () => (await push.received()).length > 0, 30_000, "forge's Web Push");
    const [got] = await push.received();
    assertEquals(NotifyPushPayload.parse(JSON.parse(got.payload)).seat, "Acme/alpha/lead");
    // Each notification is read once its show is done (notificationsAt says why).
    const pushWorker = await workerAt(page.context(), origin, pushScope);
    await recordShownIn(pushWorker);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin,
      registrationId: await registrationId(cdp, `${origin}${pushScope}`),
      data: got.payload,
    });
    const tag = `forge ${host} Acme/alpha/lead`;
    const pushed = { title: "alpha/lead needs you", body: "Bash: touch allowed.txt", tag };
    assertEquals(await shownBy(pushWorker, 1, "the push shown"), [{ scope: pushScope, ...pushed }]);
    assertEquals(await notificationsAt(page, pushScope), [pushed]);

    // A tap opens the seat in this page, where the ask waits in the dock and is answered.
    await tap(pushWorker, tag);
    await page.waitForURL(`**#/@${host}/seat/Acme/alpha/lead`);
    const ask = page.getByTestId("ask-permission");
    await ask.getByTestId("option-allow_once").click({ timeout: 30_000 });
    await ask.waitFor({ state: "detached", timeout: 30_000 });
    assertEquals(await notificationsAt(page, pushScope), [], "the tap closed it");

    // Hidden on the home: a parked ask raises the page's own notification: forge's title, and
    // no word an agent wrote (forge takes secrets out of its pushes; the page cannot).
    await page.goto(`${w.webUrl}#/`);
    await page.getByTestId("home").waitFor();
    assertEquals(await page.evaluate("forgeTestShown"), [], "a visible page raises none itself");
    await setHidden(page, true);
    command(h, "prompt", { key: ALPHA, text: "[[script:bash]] again", attachments: [] });
    const second = await nextAsk(h, ALPHA);
    const call = { title: "alpha/lead needs you", body: "an ask is waiting for your answer", tag };
    assertEquals(await shownBy(page, 1, "a call"), [{ scope: "/", ...call }]);
    assertEquals(await notificationsAt(page, "/"), [call]);
    command(h, "respond_permission", { key: ALPHA, tool_id: second.tool_id, outcome: ALLOW });
    await dismissAll(page, "/");

    // Hidden while it shows beta: beta's ask is drawn in its dock and raises nothing; alpha's,
    // parked after it, calls (so the page was listening all along). Both count in the title and
    // on the app's badge.
    await page.evaluate(`location.hash = "#/seat/Acme/beta/lead"`);
    await page.getByTestId("composer").waitFor();
    command(h, "prompt", { key: BETA, text: "[[script:bash]] here", attachments: [] });
    const third = await nextAsk(h, BETA);
    await page.getByTestId("ask-permission").waitFor({ timeout: 30_000 });
    command(h, "prompt", { key: ALPHA, text: "[[script:bash]] there", attachments: [] });
    const fourth = await nextAsk(h, ALPHA);
    assertEquals((await shownBy(page, 2, "alpha's call")).map((n) => n.title), [
      "alpha/lead needs you",
      "alpha/lead needs you",
    ]);
    assertEquals((await notificationsAt(page, "/")).map((n) => n.title), ["alpha/lead needs you"]);
    await page.waitForFunction(`document.title === "(2) forge"`);
    assertEquals(await page.evaluate("forgeTestBadges.at(-1)"), 2);
    command(h, "respond_permission", { key: BETA, tool_id: third.tool_id, outcome: ALLOW });
    command(h, "respond_permission", { key: ALPHA, tool_id: fourth.tool_id, outcome: ALLOW });
    await page.waitForFunction(`document.title === "forge"`, null, { timeout: 30_000 });
    assertEquals(await page.evaluate("forgeTestBadges.at(-1)"), 0);
    await h.close();
  },
});
