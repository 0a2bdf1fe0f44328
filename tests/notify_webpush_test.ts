// Spawned tier: forge with Web Push on, the fake push service its one allowed push host (its
// own process). A "browser" subscribes with home's VAPID key; a parked ask reaches the push
// service, whose VAPID check passes and whose decryption with the subscription's keys gives the
// payload a service worker shows; a push the service answers 410 drops that subscription.
// docs/notify.md "Web Push"; protocol/notify.ts NotifyPushPayload.
import { NotifyPushPayload } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ask, until } from "./harness.ts";
import { CLIENT_URL, homeNotify, nextAsk, nextUpdate, notifyWorld } from "./notify_harness.ts";
import { untilResult } from "./mcp_harness.ts";
import { command, subscribeSeat } from "./seats_harness.ts";

Deno.test("a Web Push reaches the push service and decrypts to the payload; a 410 drops that subscription", async () => {
  await using w = await notifyWorld({ webpush: true });
  const forge = await w.world.startForge();
  const alpha = w.world.lead("alpha");
  const h = await forge.ready();
  const home = await homeNotify(h);
  assertEquals((home.channels as Record<string, unknown>).webpush, {
    state: "ok",
    why: "no browser has subscribed yet",
  });
  const key = home.vapid_public_key as string;
  assertMatch(key, /^B[A-Za-z0-9_-]{86}$/, "an uncompressed P-256 point, base64url");

  // A push service the config does not allow is refused in words, naming the key to add it to.
  command(h, "notify_subscribe", {
    endpoint: "https://push.elsewhere.invalid/x",
    keys: { p256dh: "BAAA", auth: "AAAA" },
  });
  assertMatch(
    String((await h.next((m) => m.kind === "error")).why),
    /push service push\.elsewhere\.invalid:443 is not in \[notify\.webpush\] push_hosts/,
  );

  const browser = await w.push.subscribe(key);
  // As a page sends it, expirationTime and all: forge ignores what it does not read.
  command(h, "notify_subscribe", { ...browser });
  assertEquals((await nextUpdate(h, "notify_state_changed")).subscriptions, 1);

  const c = await forge.ready();
  await subscribeSeat(c, alpha, true);
  command(c, "prompt", { key: alpha, text: "[[script:bash]] make a file", attachments: [] });
  const asked = await nextAsk(c, alpha);
  await until(async () => (await w.push.received()).length > 0, 30_000, "the Web Push");
  const [got] = await w.push.received();
  const payload = NotifyPushPayload.parse(JSON.parse(got.payload));
  assertEquals(payload, {
    title: "alpha/lead needs you",
    body: "Bash: touch allowed.txt",
    kind: "ask",
    seat: "Acme/alpha/lead",
    count: 1,
    url: `${CLIENT_URL}#/seat/Acme/alpha/lead`,
  });
  assertEquals([got.urgency, got.ttl], ["high", 86400]);
  command(c, "respond_permission", {
    key: alpha,
    tool_id: asked.tool_id,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  await untilResult(c);

  // The browser unsubscribed at its push service: the next push is answered 410 and dropped.
  await w.push.gone(browser.endpoint);
  const test = await ask(h, "notify_test", { channel: "webpush" });
  assertEquals(test.ok, false);
  assertMatch(
    String(test.why),
    /^the push service at 127\.0\.0\.1:\d+ says this browser's subscription is gone \(HTTP 410\); forge dropped it$/,
  );
  await h.next((m) => {
    const u = m.kind === "update" ? (m.update as Record<string, Record<string, unknown>>) : null;
    return u?.notify_state_changed?.subscriptions === 0;
  }, 30_000);
  const stored = JSON.parse(
    await Deno.readTextFile(`${w.world.dir}/forge/state/notify/subscriptions.json`),
  );
  assertEquals(stored.subscriptions, []);
  const vapid = JSON.parse(await Deno.readTextFile(`${w.world.dir}/forge/state/notify/vapid.json`));
  assertEquals(vapid.public_key, key);
  const config = await Deno.readTextFile(w.world.configPath);
  const log = await Deno.readTextFile(`${w.world.dir}/forge/forge.log`);
  for (const text of [config, log]) {
    assert(!text.includes(vapid.private_key), "the private key stays in the state dir");
    assert(!text.includes(browser.endpoint), "an endpoint is never written down but in the store");
  }
});
