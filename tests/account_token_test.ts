// Spawned tier: an account token with a line break in its middle (pasted so on the settings page,
// or wrapped in a TOML multi-line string) is refused where it enters, by its key, and never said:
// not on stderr, not in forge.log, not in any frame. Before, Deno's header error quoted it whole
// into forge.log, the CLI's 502 body and every subscriber's notice. docs/configuration.md.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { keptDenoCache, until } from "./harness.ts";
import { command, readPort, subscribeSeat, updateOf } from "./seats_harness.ts";
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

// The reviewer's second finding: with a sound token, an upstream that cannot be reached put
// fetch's own words ("fetch failed") into the CLI's 502 body, its transcript and every
// subscriber's notice. They are forge's now: how the connection failed, never the engine's.
Deno.test("an upstream that cannot be reached is said in forge's words on the seat's frames", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-token-" }));
  for (const sub of ["p", "home", "tmp", "claude"]) await Deno.mkdir(`${dir}/${sub}`);
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const upstream = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  const lead = { org: "Acme", project: "p", label: "lead" };
  const text = `[env]\nCLAUDE_CODE_MAX_RETRIES = "0"\nCLAUDE_CODE_TMPDIR = "${dir}/tmp"\n` +
    `HOME = "${dir}/home"\n[[accounts]]\ndisplay_name = "Main"\nprovider = "anthropic"\n` +
    `token = "sk-ant-api03-sound"\nbase_url = "${upstream}"\nconfig_dir = "${dir}/claude"\n` +
    `[[orgs]]\nname = "Acme"\naccounts = ["Main"]\n` +
    `[[orgs.projects]]\nname = "p"\npath = "${dir}/p"\nauto_start = true\n`;
  try {
    await using forge = await spawnForge(text, { HOME: `${dir}/home` });
    const c = await forge.connect();
    await c.next((m) => m.kind === "settings");
    await subscribeSeat(c, lead, true);
    command(c, "prompt", { key: lead, text: "hello", attachments: [] });
    // The turn ends on the CLI's error, which quotes the 502's body; the seat's notice says it too.
    const ended = await c.next((m) => updateOf(m, "turn_error") !== null, 60_000);
    const said =
      `account Main's upstream ${upstream} could not be reached: the connection was refused`;
    const error = String(updateOf(ended, "turn_error")?.message);
    assert(error.startsWith(`API Error: 502 forge gateway: ${said}.`), error);
    const notices = c.frames.flatMap((f) =>
      f.type === "json" && updateOf(f.data, "notice")
        ? [String(updateOf(f.data, "notice")!.text)]
        : []
    );
    assert(notices.includes(said), JSON.stringify(notices));
    const frames = JSON.stringify(c.frames.flatMap((f) => f.type === "json" ? [f.data] : []));
    assert(!/fetch failed|os error|tcp connect/i.test(frames), "a frame holds fetch's own words");
    // The CLI's own transcript holds the 502's words, so forge's sentence is what it keeps.
    const transcripts = () => jsonlUnder(`${dir}/claude/projects`);
    await until(async () => (await transcripts()).includes(said), 10_000, "the transcript's 502");
    assert(!/fetch failed/i.test(await transcripts()), "the transcript holds fetch's own words");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every `.jsonl` file's text under `root` (none yet: ""). */
async function jsonlUnder(root: string): Promise<string> {
  const out: string[] = [];
  const visit = async (at: string) => {
    for await (const e of Deno.readDir(at)) {
      if (e.isDirectory) await visit(`${at}/${e.name}`);
      else if (e.name.endsWith(".jsonl")) out.push(await Deno.readTextFile(`${at}/${e.name}`));
    }
  };
  await visit(root).catch(() => {/* no transcript folder yet: nothing written */});
  return out.join("\n");
}
