// Spawned tier. A build is only a build if what it wrote serves forge: `task compile` refuses
// the Deno CLI as its runtime (fed to `deno compile`, it writes a file that is only the CLI), the
// smoke run fails a binary that cannot greet, and `task package` writes one file that serves a
// greeting from a clean directory in a network namespace with nothing but loopback.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { smokeRun } from "../tools/ship/smoke.ts";

const REPO = new URL("..", import.meta.url).pathname;
const DENO = Deno.execPath();
const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("task compile refuses the Deno CLI as DENORT_BIN, before compiling anything", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-compile-" });
  try {
    const o = await new Deno.Command(DENO, {
      args: ["task", "--quiet", "compile", "--out", `${dir}/forge`],
      cwd: REPO,
      env: { DENORT_BIN: DENO, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(o.code, 1);
    assertMatch(text(o.stderr), /DENORT_BIN=\S+ is the Deno CLI \(its --version printed "deno 2\./);
    assert(!(await Deno.stat(`${dir}/forge`).then(() => true, () => false)), "nothing was written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the smoke run fails a binary that cannot serve, and passes forge itself", async () => {
  // What `deno compile` writes when fed the CLI is the CLI: this is how that binary answers.
  const broken = await smokeRun([DENO]);
  assert(!broken.ok, "the Deno CLI is not a forge");
  assertMatch(broken.why, /exited \(status 1\) without printing LISTENING/);
  assertMatch(broken.why, /unexpected argument '--port'/);
  const source = await smokeRun([DENO, "run", "-A", `${REPO}main.ts`]);
  assert(source.ok, source.ok ? "" : source.why);
});

Deno.test("task package writes one file that greets from a clean directory with no network", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-package-" });
  try {
    const file = `${dir}/forge.run`;
    const build = await new Deno.Command(DENO, {
      args: ["task", "--quiet", "package", "--out", file, "--no-smoke"],
      cwd: REPO,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(build.success, `the package did not build:\n${text(build.stderr)}`);
    // Only loopback exists in the new namespace: an npm lookup or a download would fail there.
    // The smoke run's client runs inside it too, so it can reach the package's loopback port.
    const smoke = [DENO, "run", "-A", `${REPO}tools/ship/smoke.ts`, "--", file];
    const run = await new Deno.Command("unshare", {
      args: [
        "--net",
        "--map-root-user",
        "sh",
        "-c",
        'ip link set lo up && exec "$@"',
        "sh",
        ...smoke,
      ],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = text(run.stdout) + text(run.stderr);
    assert(run.success, `the package did not greet without a network:\n${said}`);
    assertMatch(said, /forge smoke: ok: \S+ · \S+ greeted on port \d+/);
    // The shipped deno.json reads npm packages from node_modules/ only: no registry is tried.
    assert(!/Download|npm registry|failed to fetch/i.test(said), said);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
