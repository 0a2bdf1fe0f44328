// Socket tier: home's cli_version names the installed claude (the pinned toolchain's, read at
// boot) and the latest npm names, and each move is announced by the unit cli_version_changed.
// The npm client is a stand-in script; the timer is injected and ticked by the test. spec: What
// a subject carries > home (cli_version); How a message is tagged (the unit variants).
import type { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";

type Versions = { installed: string | null; latest: string | null };

async function versions(c: ForgeClient): Promise<Versions> {
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data;
  return (home as { cli_version: Versions }).cli_version;
}

/** Reads the home again on each cli_version_changed until `want` holds. */
async function until(c: ForgeClient, want: (v: Versions) => boolean): Promise<Versions> {
  for (let v = await versions(c);; v = await versions(c)) {
    if (want(v)) return v;
    await c.next((m) => m.kind === "update" && m.update === "cli_version_changed", 30_000);
  }
}

Deno.test("cli_version: installed at boot, latest from npm, each move announced", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-npm-" });
  const npm = `${dir}/npm`;
  // npm view --json prints the one version as a JSON string.
  const answer = (v: string) =>
    Deno.writeTextFile(npm, `#!/bin/sh\necho '"${v}"'\n`, { mode: 0o755 });
  await answer("9.9.1");
  let tick: () => Promise<void> = () => Promise.reject(new Error("the check never started"));
  try {
    await using t = await testServer(`[claude]\ncheck_latest = true\nnpm = "${npm}"\n`, {
      latestSchedule: (run) => {
        tick = run;
        return { stop: () => {} };
      },
    });
    const c = await t.ready();
    const pinned = (await new Deno.Command(Deno.env.get("FORGE_CLAUDE_BIN")!, {
      args: ["--version"],
    }).output()).stdout;
    const installed = /(\d+\.\d+\.\d+)/.exec(new TextDecoder().decode(pinned))![1];
    await until(c, (v) => v.installed === installed);
    await tick();
    assertEquals(await until(c, (v) => v.latest !== null), { installed, latest: "9.9.1" });
    await answer("9.9.2");
    await tick();
    assertEquals((await until(c, (v) => v.latest !== "9.9.1")).latest, "9.9.2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
