// spec: What a subject carries > home (cli_version: the installed and latest claude versions);
// catalogue 2.2 (cli_version_changed is a unit redraw). npm is stood in for by a script that
// answers `npm view <package> version` as npm does.
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { CLI_PACKAGE, CliVersions, readLatestCliVersion } from "./cli_version.ts";

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

Deno.test("readLatestCliVersion: npm view's version, or npm's own first words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-npm-" });
  try {
    assertEquals(await readLatestCliVersion(await fakeNpm(dir, "2.1.400")), { version: "2.1.400" });
    assertEquals(await Deno.readTextFile(`${dir}/argv`), `view ${CLI_PACKAGE} version\n`);
    const failed = await readLatestCliVersion(
      await fakeNpm(dir, "", 1, "npm error code ENOTFOUND"),
    );
    assertEquals(failed, {
      why: `npm view ${CLI_PACKAGE} version answered 1: npm error code ENOTFOUND`,
    });
    assertMatch(
      (await readLatestCliVersion(`${dir}/absent-npm`) as { why: string }).why,
      /^npm could not be run: /,
    );
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
  const init = (version: unknown) => ({
    name: "chat_appended",
    fields: { key, msg: { type: "system", subtype: "init", claude_code_version: version } },
  });
  v.onUpdate(init("2.1.332"));
  v.onUpdate(init("not a version"));
  assertEquals(changed, 1);
  v.onUpdate(init("2.1.340"));
  assertEquals([v.installed, changed], ["2.1.340", 2]);
});
