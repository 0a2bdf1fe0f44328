import { ExtensionsRead } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { testServer } from "./harness.ts";
import {
  bumpVersion,
  claudeByHand,
  nextPlugins,
  pluginsConfig,
  readExtensions,
  writeMarketplace,
} from "./plugins_fixture.ts";

// spec (catalogue: plugins.auto_update, "update plugins once at boot"): with [plugins]
// auto_update on, the server updates every installed plugin once as it starts, through the real
// CLI, and the run it made is the subject's update_run with trigger "auto".

Deno.test("extensions: [plugins] auto_update updates the installed plugins once at boot", async () => {
  const root = await Deno.makeTempDir({ prefix: "forge-plugins-boot-" });
  try {
    const [cfg, src] = [`${root}/cfg`, `${root}/src/m`];
    await writeMarketplace(src, "mk", [
      { name: "moves", version: "1.0.0" },
      { name: "stays", version: "1.0.0" },
    ]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", src);
    await claudeByHand(cfg, "plugin", "install", "moves@mk");
    await claudeByHand(cfg, "plugin", "install", "stays@mk");
    await bumpVersion(src, "moves", "1.2.0");

    await using t = await testServer(pluginsConfig(cfg, "[plugins]\nauto_update = true\n"));
    const c = await t.ready();
    const read = ExtensionsRead.parse(await readExtensions(c));
    // The boot run may have finished before the subscribe or still be running: either way, its end.
    const run = read.update_run?.finished
      ? read.update_run
      : (await nextPlugins(c, "plugins_update_run_finished")).run;
    assertEquals(run.trigger, "auto");
    assert(run.finished);
    assertEquals(
      run.rows.map((r) => [r.plugin_id, r.status, r.installed_version, r.available_version]),
      [
        ["moves@mk", "updated", "1.0.0", "1.2.0"],
        ["stays@mk", "already_current", "1.0.0", "1.0.0"],
      ],
    );
    const after = ExtensionsRead.parse(await readExtensions(c));
    assertEquals(after.snapshot?.installed.map((r) => r.version), ["1.2.0", "1.0.0"]);
    assertEquals(after.update_run, run, "the read carries the same run the frames did");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("extensions: without auto_update nothing runs at boot", async () => {
  const root = await Deno.makeTempDir({ prefix: "forge-plugins-boot-" });
  try {
    const [cfg, src] = [`${root}/cfg`, `${root}/src/m`];
    await writeMarketplace(src, "mk", [{ name: "moves", version: "1.0.0" }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", src);
    await claudeByHand(cfg, "plugin", "install", "moves@mk");
    await bumpVersion(src, "moves", "1.2.0");
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    const read = ExtensionsRead.parse(await readExtensions(c));
    assertEquals(read.update_run, null);
    assertEquals(read.snapshot?.installed.map((r) => r.version), ["1.0.0"]);
    // The scan already sees what an update would bring (the directory marketplace is read live).
    assertEquals(read.snapshot?.components[0].available_version, "1.2.0");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
