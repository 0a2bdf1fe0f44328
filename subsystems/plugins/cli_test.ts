// A `claude plugin` call that gives no JSON answer: the CLI's own refusal is its words for the
// press; a crash's stack trace is an engine's and stays out of the answer (it goes to the log).
// The real CLI cannot be made to crash on demand, so a script stands in for it here alone.
import { assertEquals } from "../../tests/assert.ts";
import { runPluginCli } from "./cli.ts";

async function withCli(stderr: string, fn: (bin: string, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "forge-plugin-cli-" });
  const bin = `${dir}/claude`;
  await Deno.writeTextFile(bin, `#!/bin/sh\ncat >&2 <<'EOF'\n${stderr}\nEOF\nexit 1\n`);
  await Deno.chmod(bin, 0o755);
  try {
    await fn(bin, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("plugin cli: a crash's stack stays out of the answer, the CLI's refusal is kept", async () => {
  const crash =
    'file:///opt/cli.js:12\n  throw new TypeError("Cannot read properties of undefined")\n' +
    "TypeError: Cannot read properties of undefined (reading 'x')\n    at run (file:///opt/cli.js:12:9)";
  await withCli(crash, async (bin, dir) => {
    const out = await runPluginCli({ bin, configDir: `${dir}/cfg` }, ["install", "a@b"]);
    assertEquals([out.ok, out.message], [
      false,
      "claude plugin install a@b exited 1 without an answer; the log has its stderr",
    ]);
    assertEquals(out.stderr.includes("TypeError"), true);
  });
  await withCli('✘ Plugin "a" not found in marketplace "b"', async (bin, dir) => {
    const out = await runPluginCli({ bin, configDir: `${dir}/cfg` }, ["install", "a@b"]);
    assertEquals([out.ok, out.message], [false, 'Plugin "a" not found in marketplace "b"']);
  });
});

Deno.test("plugin cli: a binary that cannot start is said in forge's words", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-plugin-cli-" });
  try {
    await Deno.writeTextFile(`${dir}/not-exec`, "");
    const out = await runPluginCli({ bin: `${dir}/not-exec`, configDir: `${dir}/cfg` }, ["list"]);
    assertEquals(
      out.message,
      `claude plugin list: ${dir}/not-exec could not be started: forge is not allowed to run it`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
