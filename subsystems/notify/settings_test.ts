// docs/notify.md "The keys" and "Permissions": a value forge could not use is refused at load in
// forge's words naming the key; push_hosts is what the launcher grants, a wildcard as Deno reads
// one, and a subscription is let in exactly where that grant reaches.
import { CORE_AREAS } from "../../server/config/core_areas.ts";
import { ConfigError, loadConfigText } from "../../server/config/load.ts";
import { catalogueAreas } from "../../server/registry.ts";
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../mod.ts";
import { notifyNetHosts, pushHostGranted } from "./settings.ts";

const load = (text: string) =>
  loadConfigText(text, "/srv/forge.toml", catalogueAreas(CORE_AREAS, SUBSYSTEMS)).config;
function refusal(text: string): string {
  try {
    load(text);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`loaded: ${text}`);
}
const on = "[notify]\nenabled = true\n";

Deno.test("a URL, topic, subject or push host forge could not use is refused at load, by key", () => {
  const cases: [string, RegExp][] = [
    [`${on}client_url = "forge.lan"\n`, /in `notify`: `client_url` must be an http: or https: URL/],
    [
      `${on}[notify.ntfy]\nurl = "ntfy.sh"\ntopic = "t"\n`,
      /in `notify\.ntfy`: `url` must be an http: or https: URL, not "ntfy\.sh"/,
    ],
    [`${on}[notify.gotify]\nurl = "ftp://g.lan"\n`, /in `notify\.gotify`: `url` must be an http:/],
    [
      `${on}[notify.ntfy]\nurl = "https://ntfy.sh"\ntopic = "my alerts"\n`,
      /in `notify\.ntfy`: `topic` must be 1 to 64 letters, digits, - or _/,
    ],
    [
      `${on}[notify.webpush]\nenabled = true\nsubject = "forge@example.org"\n`,
      /in `notify\.webpush`: `subject` must be a mailto: or https: URL/,
    ],
    [
      `${on}[notify.webpush]\nenabled = true\npush_hosts = ["https://fcm.googleapis.com/fcm"]\n`,
      /in `notify\.webpush`: `push_hosts` must list hosts .* not "https:\/\/fcm\.googleapis\.com\/fcm"/,
    ],
  ];
  for (const [text, words] of cases) {
    const message = refusal(text);
    assertMatch(message, /^forge\.toml at \/srv\/forge\.toml is invalid at line \d+/);
    assertMatch(message, words);
  }
});

Deno.test("push_hosts is granted lower case on 443 unless a port is named; a wildcard stays one", () => {
  const config = load(
    `${on}[notify.webpush]\nenabled = true\nsubject = "mailto:me@example.org"\n` +
      `push_hosts = ["FCM.googleapis.com", "*.notify.windows.com", "push.lan:8443", "[::1]"]\n`,
  );
  assertEquals(notifyNetHosts(config), [
    "fcm.googleapis.com:443",
    "*.notify.windows.com:443",
    "push.lan:8443",
    "[::1]:443",
  ]);
});

Deno.test("a subscription's host is let in where the grant reaches, as Deno reads a wildcard", () => {
  const granted = ["fcm.googleapis.com:443", "*.notify.windows.com:443", "push.lan:8443"];
  const cases: [string, boolean][] = [
    ["fcm.googleapis.com:443", true],
    ["wns2-par02p.notify.windows.com:443", true],
    ["notify.windows.com:443", true], // Deno's `*.` grant reaches the domain itself too
    ["evilnotify.windows.com:443", false],
    ["wns2-par02p.notify.windows.com:8443", false],
    ["push.lan:8443", true],
    ["push.lan:443", false],
    ["googleapis.com:443", false],
  ];
  for (const [where, let_in] of cases) assertEquals(pushHostGranted(granted, where), let_in, where);
});
