// Spawned tier: an account token with a line break in its middle (pasted so on the settings page,
// or wrapped in a TOML multi-line string) is refused where it enters, by its key, and never said:
// not on stderr, not in forge.log, not in any frame. Before, Deno's header error quoted it whole
// into forge.log, the CLI's 502 body and every subscriber's notice. docs/configuration.md.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { keptDenoCache } from "./harness.ts";
import { readPort } from "./seats_harness.ts";
import { spawnForge } from "./spawned.ts";

const REPO = new URL("..", import.meta.url).pathname;
/** The token's halves: neither may appear anywhere forge writes. */
const FIRST = "sk-ant-api03-FIRSTHALF";
const HIDDEN = "SECONDHALFSECRET";

/** One token account on a loopback port nothing answers on (no request leaves the machine). */
const config = (token: string) =>
  `[[accounts]]\ndisplay_name = "Main"\nprovider = "anthropic"\ntoken = ${token}\n` +
  `base_url = "http://127.0.0.1:9"\n\n[[orgs]]\nname = "Acme"\naccounts = ["Main"]\n\n` +
  `[[orgs.projects]]\nname = "proj"\npath = "/nonexistent/forge-test-project"\n`;

const holdsToken = (text: string) => text.includes(HIDDEN) || text.includes(FIRST);

/** forge.log's text, or "" when the boot ended before it was opened. */
const logOf = (dir: string) => Deno.readTextFile(`${dir}/forge.log`).catch(() => "");

Deno.test("a token with a line break refuses the boot by its key; stderr and forge.log never hold it", async () => {
  for (
    const token of [`"${FIRST}\\n${HIDDEN}"`, `"""\n${FIRST}\n${HIDDEN}\n"""`]
  ) {
    const dir = await Deno.makeTempDir({ prefix: "forge-token-" });
    try {
      await Deno.writeTextFile(`${dir}/forge.toml`, config(token));
      const child = new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "start", "--config", `${dir}/forge.toml`, "--port", "0"],
        cwd: REPO,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { ...keptDenoCache(), HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
      }).spawn();
      const err = new Response(child.stderr).text();
      // A forge that took the token serves: it is stopped, and the test fails saying so.
      const served = await readPort(child.stdout, /LISTENING \S+:(\d+)/).then(
        () => true,
        () => false,
      );
      if (served) child.kill("SIGTERM");
      const status = await child.status;
      const stderr = await err;
      assert(!served, `forge served with the token:\n${stderr}`);
      assertEquals(status.code, 1, stderr);
      const headline = stderr.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("{"));
      assertEquals(headline.length, 1, stderr);
      assertMatch(
        headline[0],
        /^forge could not start while reading its config .*is invalid at line 4, column 1 in `accounts\[0\]`: `token` holds a line break inside it/,
      );
      assert(!holdsToken(stderr), "stderr holds the token");
      assert(!holdsToken(await logOf(dir)), "forge.log holds the token");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

// spec: Editing the config: the save runs the boot loader, so the settings page's paste is refused
// by key; a hand edit that fails to load keeps the last good config and says why on home.
Deno.test("a running forge refuses the token by its key in a save and in a hand edit; no frame or log holds it", async () => {
  await using forge = await spawnForge(config(`"sk-ant-api03-good"`));
  const c = await forge.connect();
  await c.next((m) => m.kind === "greeting");
  const doc = (await c.next((m) => m.kind === "settings")).document as { fingerprint: string };
  const before = await Deno.readTextFile(forge.configPath);
  c.send({
    kind: "settings_edit",
    fingerprint: doc.fingerprint,
    id: 1,
    edits: [{
      area: "accounts",
      key_path: "accounts.Main.token",
      pattern: "accounts[].token",
      op: "set",
      value: `${FIRST}\n${HIDDEN}`,
    }],
  });
  const refused = await c.next((m) => m.kind === "settings_refused" || m.kind === "settings_saved");
  assertEquals([refused.kind, refused.reason, refused.key_path], [
    "settings_refused",
    "invalid",
    "accounts.Main.token",
  ]);
  assertMatch(String(refused.message), /in `accounts\[0\]`: `token` holds a line break inside it/);
  assertEquals(await Deno.readTextFile(forge.configPath), before, "nothing was written");

  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot" && m.subject === "home");
  await Deno.writeTextFile(forge.configPath, config(`"""\n${FIRST}\n${HIDDEN}"""`));
  const update = await c.next((m) =>
    m.kind === "update" && typeof m.update === "object" && m.update !== null &&
    "fatal_error" in m.update
  );
  const fatal = (update.update as { fatal_error: { error: string; message: string } }).fatal_error;
  assertEquals(fatal.error, "config_invalid");
  assertMatch(fatal.message, /in `accounts\[0\]`: `token` holds a line break inside it/);

  await forge.stop();
  const frames = JSON.stringify(c.frames.flatMap((f) => f.type === "json" ? [f.data] : []));
  assert(!holdsToken(frames), "a frame holds the token");
  assert(!holdsToken(forge.stderr()), "stderr holds the token");
  const log = await logOf(forge.dir);
  assert(log.includes('"event":"config_reload_failed"'), "the failed reload is logged");
  assert(!holdsToken(log), "forge.log holds the token");
});
