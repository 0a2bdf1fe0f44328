// docs/notify.md "What a push says": the title names the seat, a tap lands on it, and no secret
// the config holds or the vault handed an agent is in a push's words, whole or cut.
import { assertEquals } from "../../tests/assert.ts";
import { secretsOf } from "../../server/config/secrets.ts";
import { composePush, scrub, seatTitle, seatUrl } from "./push.ts";

const key = { org: "Acme", project: "alpha", label: "lead" };
const ask = (line: string) =>
  composePush(key, [{ kind: "ask", id: "a", line }], { title: "alpha/lead", clientUrl: null });

Deno.test("a title names the org only where two orgs share the project; the click lands on the seat", () => {
  const orgs = [
    { name: "Acme", projects: [{ name: "alpha" }] },
    { name: "Beta", projects: [{ name: "alpha" }, { name: "web" }] },
  ];
  assertEquals(seatTitle(key, orgs), "Acme/alpha/lead");
  assertEquals(seatTitle({ org: "Beta", project: "web", label: "w 1" }, orgs), "web/w 1");
  assertEquals(
    seatUrl("https://forge.example/app/#/old", { org: "Beta", project: "web", label: "w 1" }),
    "https://forge.example/app/#/seat/Beta/web/w%201",
  );
});

Deno.test("a client_url naming a forge keeps the name: the tap opens the seat on that forge", () => {
  const slot = { org: "Beta", project: "web", label: "w 1" };
  assertEquals(
    seatUrl("https://page.lan:8791/#/@box.lan:8790", slot),
    "https://page.lan:8791/#/@box.lan:8790/seat/Beta/web/w%201",
  );
  // A page's own address for a forge (a seat, a tab) given whole: the forge is what is kept.
  assertEquals(
    seatUrl("https://page.lan:8791/#@[::1]:8790/board", slot),
    "https://page.lan:8791/#/@[::1]:8790/seat/Beta/web/w%201",
  );
});

Deno.test("no secret the config holds reaches a push's words", () => {
  const config = {
    areas: { notify: { "ntfy.token": "tk_planted_ntfy", "gotify.app_token": "gtfya.planted" } },
    env: { ANTHROPIC_API_KEY: "sk-env-planted" },
    accounts: [{ token: "sk-account-planted", env: {} }],
    slack: [{ token: "xoxp-planted" }],
    orgs: [],
  } as unknown as Parameters<typeof secretsOf>[0];
  const push = ask(
    "Bash: curl -H 'Bearer tk_planted_ntfy' -d sk-env-planted xoxp-planted sk-account-planted",
  );
  assertEquals(scrub(push, secretsOf(config)).body, "Bash: curl -H 'Bearer •••' -d ••• ••• •••");
});

Deno.test("an ntfy topic and a URL's password are secrets too", () => {
  const config = {
    areas: { notify: { "ntfy.topic": "alerts-9f2k" } },
    env: { DATABASE_URL: "postgres://app:p%40ss-w0rd@db.lan/app" },
    accounts: [],
    orgs: [],
  } as unknown as Parameters<typeof secretsOf>[0];
  const push = ask("Bash: psql postgres://app:p%40ss-w0rd@db.lan/app && ntfy pub alerts-9f2k");
  assertEquals(
    scrub(push, secretsOf(config)).body,
    "Bash: psql postgres://app:•••@db.lan/app && ntfy pub •••",
  );
});

Deno.test("a secret the 100-character cut ends inside, or one with folded whitespace, goes too", () => {
  const token = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz";
  // lines.ts cuts the command at 100 characters: here, 20 characters into the token.
  const command = `${"x".repeat(80)}${token}`;
  const line = `Bash: ${command.slice(0, 100)}…`;
  assertEquals(scrub(ask(line), [token]).body, `Bash: ${"x".repeat(80)}•••…`);
  const phrase = "correct  horse\nbattery staple";
  assertEquals(
    scrub(ask("Bash: login correct horse battery staple"), [phrase]).body,
    "Bash: login •••",
  );
});
