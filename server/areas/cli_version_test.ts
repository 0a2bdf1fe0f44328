// spec: What a subject carries > home (cli_version: the installed and latest claude versions);
// cli_version_changed is a unit redraw (spec: How a message is tagged). npm is stood in for by a
// script that answers `npm view <package> version --json` as npm does.
import { assertEquals } from "../../tests/assert.ts";
import { CLI_PACKAGE, CliVersions, readLatestCliVersion } from "./cli_version.ts";
import { update } from "../../protocol/mod.ts";

/** A stand-in npm: prints `out` and exits `code` (stderr `err`), recording its argv. */
async function fakeNpm(dir: string, out: string, code = 0, err = ""): Promise<string> {
  const path = `${dir}/npm`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\necho "$@" > "${dir}/argv"\nprintf '%s\\n' '${out}'\nprintf '%s\\n' '${err}' >&2\nexit ${code}\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("readLatestCliVersion: npm view's JSON version, or forge's words with npm's beside", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-npm-" });
  try {
    assertEquals(await readLatestCliVersion(await fakeNpm(dir, '"2.1.400"')), {
      version: "2.1.400",
    });
    assertEquals(await Deno.readTextFile(`${dir}/argv`), `view ${CLI_PACKAGE} version --json\n`);
    const failed = await readLatestCliVersion(
      await fakeNpm(dir, '{"error":{"code":"ENOTFOUND"}}', 1, "npm error code ENOTFOUND"),
    );
    assertEquals(failed, {
      why: `npm view ${CLI_PACKAGE} failed (exit 1)`,
      cause: '{"error":{"code":"ENOTFOUND"}} | npm error code ENOTFOUND',
    });
    assertEquals(await readLatestCliVersion(await fakeNpm(dir, "2.1.400 (beta)")), {
      why: `npm view ${CLI_PACKAGE} answered something that is not JSON`,
      cause: "2.1.400 (beta)",
    });
    assertEquals(await readLatestCliVersion(await fakeNpm(dir, '"latest"')), {
      why: `npm view ${CLI_PACKAGE} answered no release version`,
      cause: '"latest"',
    });
    const absent = await readLatestCliVersion(`${dir}/absent-npm`) as { why: string };
    assertEquals(absent.why, `the npm client \`${dir}/absent-npm\` could not be run`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readLatestCliVersion: an npm that never answers is ended and said so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-npm-" });
  try {
    const path = `${dir}/npm`;
    // exec: the sleep itself is the process the timeout ends, so its pipe closes with it.
    await Deno.writeTextFile(path, "#!/bin/sh\nexec sleep 600\n", { mode: 0o755 });
    assertEquals(await readLatestCliVersion(path, undefined, 200), {
      why: `npm view ${CLI_PACKAGE} did not answer within 0.2 s`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CliVersions: a move is announced once; a seat's init names the installed CLI", () => {
  let changed = 0;
  const v = new CliVersions(() => changed++);
  v.set("installed", "2.1.332");
  v.set("installed", "2.1.332");
  v.set("latest", null);
  assertEquals([v.wire(), changed], [{ installed: "2.1.332", latest: null }, 1]);
  const key = { org: "Acme", project: "p", label: "lead" };
  const init = (version: string) =>
    update("chat_appended", {
      key,
      msg: { type: "system", subtype: "init", claude_code_version: version },
    });
  v.onUpdate(init("2.1.332"));
  v.onUpdate(init("not a version"));
  assertEquals(changed, 1);
  v.onUpdate(init("2.1.340"));
  assertEquals([v.installed, changed], ["2.1.340", 2]);
});
