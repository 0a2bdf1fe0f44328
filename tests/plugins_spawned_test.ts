import { ExtensionsRead } from "../protocol/mod.ts";
import { assertEquals, assertMatch } from "./assert.ts";
import {
  claudeByHand,
  nextPlugins,
  pluginsConfig,
  readExtensions,
  writeMarketplace,
} from "./plugins_fixture.ts";
import { spawnForge } from "./spawned.ts";

// forge started as a person starts it (`deno task start`), under the narrow permissions the
// launcher computes with the file fence on ([terminal] off): the scan reads a directory
// marketplace outside the config dir, the LSP checks stat PATH, the watch follows the disk and
// the real CLI installs. docs/permissions.md; spec: extensions.
Deno.test("extensions under the launcher's permissions: scan, lsp PATH checks, an install and the watch", async () => {
  const root = await Deno.makeTempDir({ prefix: "forge-plugins-spawned-" });
  try {
    const [cfg, src] = [`${root}/cfg`, `${root}/src/m`];
    await writeMarketplace(src, "mk", [
      { name: "hello", version: "0.1.0", full: true },
      {
        name: "lspy",
        version: "0.1.0",
        lsp: { "fake-ls": "fake-language-server-not-on-path", "shell-ls": "sh" },
      },
    ]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", src);
    await using forge = await spawnForge(pluginsConfig(cfg, "[terminal]\nenabled = false\n"));
    const c = await forge.connect();
    await c.next((m) => m.kind === "settings");
    const before = ExtensionsRead.parse(await readExtensions(c));
    assertEquals(
      before.snapshot?.marketplace_health[0].load_error,
      null,
      "the marketplace is readable",
    );

    c.send({ kind: "command", command: { plugin_install: { plugin_id: "lspy@mk" } } });
    const done = await nextPlugins(c, "plugins_cli_action_succeeded");
    assertMatch(done.result.message, /Successfully installed plugin: lspy@mk/);
    const read = ExtensionsRead.parse(await readExtensions(c));
    assertEquals(read.lsp.map((r) => [r.server, r.on_path]), [["fake-ls", false], [
      "shell-ls",
      true,
    ]]);

    await claudeByHand(cfg, "plugin", "install", "hello@mk");
    const pushed = await nextPlugins(
      c,
      "plugins_inventory_updated",
      (f) => f.snapshot.installed.length === 2,
    );
    assertEquals(pushed.snapshot.components.find((x) => x.plugin === "hello@mk")?.commands, [
      "wave",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
