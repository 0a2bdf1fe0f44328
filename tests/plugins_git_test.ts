import { assert, assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";
import {
  bumpVersion,
  gitServer,
  nextPlugins,
  pluginsConfig,
  publishGit,
  pushGit,
  readExtensions,
  writeMarketplace,
} from "./plugins_fixture.ts";

// The real `claude plugin` CLI against a git marketplace served over loopback smart HTTP by
// `git http-backend` (the test's own server): add, install, a new upstream version seen by a
// check, one action at a time, and a corrupted clone repaired (CLI 2.1.332's `update` alone does
// not fix one: the clone is deleted, then updated). spec: What a subject carries > extensions.

Deno.test("extensions: a git marketplace over loopback: check, one action at a time, a corrupted clone repaired", async () => {
  const root = await Deno.makeTempDir({ prefix: "forge-plugins-git-" });
  try {
    const [cfg, src, srv] = [`${root}/cfg`, `${root}/src/gm`, `${root}/srv`];
    await writeMarketplace(src, "gm", [{ name: "hello", version: "0.1.0", full: true }]);
    await publishGit(src, srv, "gm");
    await using git = gitServer(srv);
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    await readExtensions(c);

    c.send({
      kind: "command",
      command: { plugin_marketplace_add: { source: `${git.url}/gm.git` } },
    });
    const added = await nextPlugins(c, "plugins_cli_action_succeeded");
    const clone = `${cfg}/plugins/marketplaces/gm`;
    assertEquals(added.result.snapshot.marketplaces, [{
      name: "gm",
      source: "git",
      repo: `${git.url}/gm.git`,
      install_location: clone,
    }]);
    c.send({ kind: "command", command: { plugin_install: { plugin_id: "hello@gm" } } });
    const installed = await nextPlugins(c, "plugins_cli_action_succeeded");
    assertEquals(installed.result.snapshot.installed.map((r) => [r.id, r.version]), [[
      "hello@gm",
      "0.1.0",
    ]]);

    // A new version upstream: only a check (which refreshes the clone first) can see it.
    await bumpVersion(src, "hello", "0.2.0");
    await pushGit(src, srv, "gm", "v2");
    // One action at a time: while the check's clone waits on the server, a second press is refused.
    const gate = git.hold();
    c.send({ kind: "command", command: "plugin_check_updates" });
    await gate.held;
    c.send({ kind: "command", command: { plugin_install: { plugin_id: "hello@gm" } } });
    const busy = await c.next((m) => m.kind === "error");
    assertMatch(
      String(busy.why),
      /plugin_check_updates is still running; one plugin action runs at a time/,
    );
    gate.release();
    const checked = await nextPlugins(c, "plugins_update_run_finished");
    assertEquals(
      checked.run.rows.map((r) => [r.status, r.installed_version, r.available_version]),
      [[
        "update_available",
        "0.1.0",
        "0.2.0",
      ]],
    );

    // A corrupted clone: the watcher sees it, the health row names it.
    await Deno.writeTextFile(`${clone}/.claude-plugin/marketplace.json`, "{ broken");
    const broken = await nextPlugins(
      c,
      "plugins_inventory_updated",
      (f) => f.snapshot.marketplace_health[0]?.load_error !== null,
    );
    assertMatch(
      broken.snapshot.marketplace_health[0].load_error!,
      /marketplace\.json is not valid JSON/,
    );
    assertMatch(broken.snapshot.components[0].load_error!, /marketplace gm failed to load/);

    c.send({ kind: "command", command: { plugin_marketplace_repair: { marketplace: "gm" } } });
    const repaired = await nextPlugins(c, "plugins_cli_action_succeeded");
    assertMatch(repaired.result.message, /Successfully updated marketplace: gm/);
    const health = repaired.result.snapshot.marketplace_health[0];
    assertEquals([health.load_error, health.available, health.drifted], [null, 1, false]);
    assert(repaired.result.snapshot.components[0].load_error === null);

    // And the repaired clone serves the update: it moves 0.1.0 -> 0.2.0.
    c.send({
      kind: "command",
      command: { plugin_update: { plugin_id: "hello@gm", scope: "user" } },
    });
    const moved = await nextPlugins(c, "plugins_update_run_finished");
    assertEquals(moved.run.rows.map((r) => [r.status, r.installed_version, r.available_version]), [[
      "updated",
      "0.1.0",
      "0.2.0",
    ]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
