// Spawned tier: what an operator sees when forge cannot start, as a person starts it (`deno task
// start`): one sentence on stderr naming the phase and what was wrong in forge's words, never the
// engine's message as the headline (that is the log's cause), and exit code 1. And what must not
// end the boot: a subsystem's promise rejected with nothing to hear it while the boot runs.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { ForgeClient } from "../tools/client_lib.ts";
import { keptDenoCache } from "./harness.ts";
import { readPort } from "./seats_harness.ts";

const REPO = new URL("..", import.meta.url).pathname;

/** Runs `args` under Deno in the repo over a fresh dir; answers its exit code and stderr. */
async function run(dir: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { ...keptDenoCache(), HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/** stderr's own lines: forge.log's records are mirrored there as JSON, the rest is the headline. */
const headlines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("{"));

const start = (config: string, ...more: string[]) => [
  "task",
  "--quiet",
  "start",
  "--config",
  config,
  "--gateway-port",
  "0",
  ...more,
];

Deno.test("a state dir that cannot be made is said in forge's words, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  // A file stands where the state dir goes.
  await Deno.writeTextFile(`${dir}/state`, "not a folder");
  const { code, stderr } = await run(dir, start(`${dir}/forge.toml`, "--port", "0"));
  assertEquals(code, 1, stderr);
  assertEquals(headlines(stderr), [
    `forge could not start while taking its state dir (the state phase): ${dir}/state: a file ` +
    "stands where a directory should be; forge.log has its cause under boot_failed",
  ]);
  // The engine's words are the log's, as the cause.
  const log = await Deno.readTextFile(`${dir}/forge.log`);
  const failed = log.split("\n").find((l) => l.includes('"boot_failed"'));
  assertMatch(failed ?? "", /"phase":"state".*os error/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a --port that is not a port is refused before anything starts, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  const sentence = "forge could not start while reading its command line (the flags phase): " +
    "--port takes a port, a whole number from 0 to 65535, not `80a`";
  // As a person starts it (the launcher), and main.ts run by itself: the same sentence.
  for (
    const args of [start(`${dir}/forge.toml`, "--port", "80a"), [
      "run",
      "-A",
      "main.ts",
      "--config",
      `${dir}/forge.toml`,
      "--port=80a",
    ]]
  ) {
    const { code, stderr } = await run(dir, args);
    assertEquals(code, 1, stderr);
    assertEquals(headlines(stderr), [sentence]);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a flag forge does not know is refused before anything starts, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  // A misspelt --port: passed over, forge would start on a port nobody asked for.
  const { code, stderr } = await run(dir, start(`${dir}/forge.toml`, "--prot", "8795"));
  assertEquals(code, 1, stderr);
  assertEquals(headlines(stderr), [
    "forge could not start while reading its command line (the flags phase): forge does not " +
    "know `--prot` on its command line: forge takes --config PATH, --port N, --gateway-port N",
  ]);
  await Deno.remove(dir, { recursive: true });
});

/** A bound on a spawned forge's boot, for a boot that hangs: not a measure of how long one takes. */
const BOOT_BOUND_MS = 120_000;

/**
 * Runs `file` (main.ts's forge with a test subsystem more) over `dir`; once it prints LISTENING,
 * `serving` runs against its socket, then forge is stopped as an operator stops it (SIGTERM) and
 * must exit 0. A forge that never prints LISTENING fails the test, its stderr shown.
 */
async function whileServing(
  dir: string,
  file: string,
  serving: (url: string) => Promise<void>,
): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      file,
      "--config",
      `${dir}/forge.toml`,
      "--port",
      "0",
      "--gateway-port",
      "0",
    ],
    cwd: REPO,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { ...keptDenoCache(), HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  // A boot that hangs would hold the test for good: it is ended, and the read below fails.
  const bound = setTimeout(() => child.kill("SIGKILL"), BOOT_BOUND_MS);
  const port = await readPort(child.stdout, /LISTENING 127\.0\.0\.1:(\d+)\n/).catch(() => null);
  clearTimeout(bound);
  try {
    if (port !== null) await serving(`ws://127.0.0.1:${port}/socket`);
  } finally {
    if (port !== null) child.kill("SIGTERM");
    const status = await child.status;
    const err = await stderr;
    assert(port !== null, `forge never served:\n${err}`);
    assertEquals(status.code, 0, err);
  }
  return await stderr;
}

Deno.test("a config path with no file is said on stderr, and forge serves its defaults", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  // A misspelt --config gives an empty fleet: the operator reads why beside LISTENING.
  const stderr = await whileServing(dir, "main.ts", () => Promise.resolve());
  assertEquals(headlines(stderr), [
    `forge: no file at ${dir}/forge.toml: running on the built-in defaults ` +
    "(the first settings save writes it)",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a subsystem's unheard rejection during the boot is logged and forge serves", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  await whileServing(dir, "tests/boot_reject_forge.ts", () => Promise.resolve());
  const log = await Deno.readTextFile(`${dir}/forge.log`);
  const rejected = log.split("\n").find((l) => l.includes('"unhandled_rejection"'));
  assertMatch(rejected ?? "", /reading 'poll'/);
  await Deno.remove(dir, { recursive: true });
});

// A start that never finishes is cut off at `[server] subsystem_start_secs` (on a clock the test's
// subsystem moves: tests/boot_stuck_forge.ts) and turned off as a throwing one is: forge serves,
// and home names it.
Deno.test("a subsystem whose start never finishes is turned off and forge serves", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-boot-" });
  await whileServing(dir, "tests/boot_stuck_forge.ts", async (url) => {
    const c = await ForgeClient.connect(url, { validate: true });
    c.send({ kind: "subscribe", what: "home" });
    const home = await c.next((m) => m.kind === "snapshot" && m.subject === "home");
    assertEquals(
      (home.data as { fatal_error: string | null }).fatal_error,
      "the never_starts subsystem did not finish starting within 60 s " +
        "(server.subsystem_start_secs); it stays off until forge restarts",
    );
    assertEquals(c.schemaErrors, []);
    await c.close();
  });
  const log = await Deno.readTextFile(`${dir}/forge.log`);
  assert(
    log.split("\n").some((l) => l.includes('"subsystem_failed"') && l.includes("never_starts")),
  );
  await Deno.remove(dir, { recursive: true });
});
