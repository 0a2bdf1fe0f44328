import { ExtensionsRead, type WireCommand } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { testServer } from "./harness.ts";
import {
  bumpVersion,
  claudeByHand,
  claudeIn,
  nextPlugins,
  pluginsConfig,
  readExtensions,
  writeMarketplace,
} from "./plugins_fixture.ts";

// Every test here drives the REAL `claude plugin` CLI ($FORGE_CLAUDE_BIN) against marketplaces
// that are local directories the test writes: no network. spec: What a subject carries >
// extensions; "The read and the frames are one shape"; "What is not here" (the six actions).

async function withDirs(fn: (cfg: string, src: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "forge-plugins-" });
  try {
    await fn(`${root}/cfg`, `${root}/src`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("extensions: a marketplace added and a plugin installed from the socket show with their components and LSP checks", async () => {
  await withDirs(async (cfg, src) => {
    await writeMarketplace(`${src}/m`, "local-market", [
      { name: "hello", version: "0.1.0", full: true },
      {
        name: "lspy",
        version: "0.1.0",
        lsp: { "fake-ls": "fake-language-server-not-on-path", "shell-ls": "sh" },
      },
    ]);
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    const before = ExtensionsRead.parse(await readExtensions(c));
    // spec: an empty machine is an empty inventory, not null: a plugins root resolves.
    assertEquals(before.snapshot?.installed, []);
    assertEquals(before.update_run, null);

    c.send({ kind: "command", command: { plugin_marketplace_add: { source: `${src}/m` } } });
    const added = await nextPlugins(c, "plugins_cli_action_succeeded");
    assertMatch(added.result.message, /Successfully added marketplace: local-market/);
    assertEquals(added.result.snapshot.marketplaces.map((m) => [m.name, m.source]), [[
      "local-market",
      "directory",
    ]]);
    assertEquals(added.result.snapshot.marketplace.map((o) => o.plugin_id), [
      "hello@local-market",
      "lspy@local-market",
    ]);

    for (const id of ["hello@local-market", "lspy@local-market"]) {
      c.send({ kind: "command", command: { plugin_install: { plugin_id: id } } });
      const done = await nextPlugins(c, "plugins_cli_action_succeeded");
      assertMatch(done.result.message, new RegExp(`Successfully installed plugin: ${id}`));
    }
    const read = ExtensionsRead.parse(await readExtensions(c));
    const snap = read.snapshot!;
    assertEquals(snap.installed.map((r) => [r.id, r.version, r.scope, r.enabled]), [
      ["hello@local-market", "0.1.0", "user", true],
      ["lspy@local-market", "0.1.0", "user", true],
    ]);
    const hello = snap.components.find((x) => x.plugin === "hello@local-market")!;
    assertEquals(
      [hello.skills, hello.commands, hello.agents, hello.hooks, hello.mcp, hello.load_error],
      [["greet"], ["wave"], ["greeter"], ["SessionStart"], true, null],
    );
    assertEquals(hello.available_version, "0.1.0");
    assertEquals(snap.token_costs, {}, "nothing measures token costs: the field stays empty");
    assertEquals(snap.marketplace_health, [{
      name: "local-market",
      source: "directory",
      available: 2,
      load_error: null,
      install_location: `${src}/m`,
      drifted: false,
    }]);
    // spec: extensions > lsp: whether each declared command resolves on this machine's PATH.
    assertEquals(read.lsp, [
      {
        plugin: "lspy@local-market",
        server: "fake-ls",
        command: "fake-language-server-not-on-path",
        on_path: false,
      },
      { plugin: "lspy@local-market", server: "shell-ls", command: "sh", on_path: true },
    ]);
  });
});

Deno.test("extensions: a check shows update_available, an update moves it with streamed rows, update-all covers three plugins", async () => {
  await withDirs(async (cfg, src) => {
    const names = ["alpha", "beta", "gamma"];
    await writeMarketplace(`${src}/m`, "mk", names.map((name) => ({ name, version: "1.0.0" })));
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    for (const n of names) await claudeByHand(cfg, "plugin", "install", `${n}@mk`);
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    assertEquals((await readExtensions(c)).snapshot?.installed.length, 3);

    await bumpVersion(`${src}/m`, "alpha", "1.1.0");
    c.send({ kind: "command", command: "plugin_check_updates" });
    const checked = await nextPlugins(c, "plugins_update_run_finished");
    assertEquals(
      checked.run.rows.map((
        r,
      ) => [r.plugin_id, r.status, r.installed_version, r.available_version]),
      [
        ["alpha@mk", "update_available", "1.0.0", "1.1.0"],
        ["beta@mk", "already_current", "1.0.0", "1.0.0"],
        ["gamma@mk", "already_current", "1.0.0", "1.0.0"],
      ],
    );
    // The read and the frame are one shape: a fresh read carries the same run.
    assertEquals((await readExtensions(c)).update_run, checked.run);

    c.send({ kind: "command", command: { plugin_update: { plugin_id: "alpha@mk" } } });
    // The one-plugin run's frames, in order, until its row lands (the check's were 3 rows wide).
    const seen: string[] = [];
    let progress;
    do {
      progress = await nextPlugins(
        c,
        "plugins_update_run_progress",
        (f) => f.run.rows.length === 1,
      );
      seen.push(progress.run.rows[0].status);
    } while (progress.run.rows[0].status !== "updated");
    assertEquals(seen.slice(0, 2), ["queued", "updating"], "the run's rows stream as they move");
    assertEquals(
      progress.run.rows.map((r) => [r.status, r.installed_version, r.available_version]),
      [[
        "updated",
        "1.0.0",
        "1.1.0",
      ]],
    );
    const one = await nextPlugins(c, "plugins_update_run_finished");
    assert(one.run.finished);
    assertEquals(one.snapshot?.installed.find((r) => r.id === "alpha@mk")?.version, "1.1.0");

    await bumpVersion(`${src}/m`, "beta", "2.0.0");
    await bumpVersion(`${src}/m`, "gamma", "2.0.0");
    c.send({ kind: "command", command: "plugin_update_all" });
    const all = await nextPlugins(c, "plugins_update_run_finished");
    assertEquals(all.run.trigger, "manual");
    assertEquals(
      all.run.rows.map((r) => [r.plugin_id, r.status, r.installed_version, r.available_version]),
      [
        ["alpha@mk", "already_current", "1.1.0", "1.1.0"],
        ["beta@mk", "updated", "1.0.0", "2.0.0"],
        ["gamma@mk", "updated", "1.0.0", "2.0.0"],
      ],
    );
    assertEquals(all.snapshot?.installed.map((r) => r.version), ["1.1.0", "2.0.0", "2.0.0"]);
  });
});

Deno.test("extensions: a failed install answers in the CLI's words, refusals in forge's, and the inventory stays served", async () => {
  await withDirs(async (cfg, src) => {
    await writeMarketplace(`${src}/m`, "mk", [{ name: "one", version: "1.0.0" }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    const before = await readExtensions(c);

    c.send({ kind: "command", command: { plugin_install: { plugin_id: "nope@mk" } } });
    const failed = await nextPlugins(c, "plugins_cli_action_failed");
    assertMatch(failed.message, /Plugin "nope" not found in marketplace "mk"/);

    // forge's own words where nothing ran: an unknown marketplace, a plugin not installed, a bad id.
    const refusals: [WireCommand, RegExp][] = [
      [
        { plugin_install: { plugin_id: "one@elsewhere" } },
        /no marketplace named elsewhere is configured/,
      ],
      [{ plugin_update: { plugin_id: "one@mk" } }, /one@mk is not installed/],
      [{ plugin_install: { plugin_id: "noat" } }, /plugin_id must be <plugin>@<marketplace>/],
      [{ plugin_install: { plugin_id: "--help@mk" } }, /plugin_id must be <plugin>@<marketplace>/],
      [{ plugin_marketplace_add: { source: "--scope" } }, /a source cannot start with "-"/],
      [{ plugin_marketplace_add: { source: " " } }, /source is empty/],
      [{ plugin_marketplace_repair: { marketplace: "ghost" } }, /no marketplace named ghost/],
    ];
    for (const [command, why] of refusals) {
      c.send({ kind: "command", command });
      const err = await c.next((m) => m.kind === "error");
      assertMatch(String(err.why), why);
    }
    const after = await readExtensions(c);
    assertEquals(after.snapshot, before.snapshot, "the inventory is unchanged and still served");
  });
});

Deno.test("extensions: a plugin installed by hand with the CLI appears without a restart", async () => {
  await withDirs(async (cfg, src) => {
    await writeMarketplace(`${src}/m`, "mk", [{ name: "solo", version: "3.0.0", full: true }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    assertEquals((await readExtensions(c)).snapshot?.installed, []);
    await claudeByHand(cfg, "plugin", "install", "solo@mk");
    const pushed = await nextPlugins(
      c,
      "plugins_inventory_updated",
      (f) => f.snapshot.installed.length === 1,
    );
    assertEquals(pushed.snapshot.installed[0].id, "solo@mk");
    assertEquals(pushed.snapshot.components[0].skills, ["greet"]);
  });
});

Deno.test("extensions: a CLI that is missing answers in words and the inventory stays served", async () => {
  await withDirs(async (cfg, src) => {
    await writeMarketplace(`${src}/m`, "mk", [{ name: "one", version: "1.0.0" }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    await using t = await testServer(
      pluginsConfig(cfg, `[claude]\npath = "${src}/no-such-claude"\n`),
    );
    const c = await t.ready();
    // The plugins_* records are keyless: they reach a home subscriber too. spec: update > home.
    c.send({ kind: "subscribe", what: "home" });
    await c.next((m) => m.kind === "snapshot");
    c.send({ kind: "command", command: { plugin_install: { plugin_id: "one@mk" } } });
    const failed = await nextPlugins(c, "plugins_cli_action_failed");
    assertMatch(
      failed.message,
      /no-such-claude could not be started: the program \(or the folder it runs in\) is not there$/,
    );
    assertEquals((await readExtensions(c)).snapshot?.marketplaces.map((m) => m.name), ["mk"]);
  });
});

Deno.test("extensions: a registry that cannot be read is plugins_inventory_refresh_failed, and the last inventory stays served", async () => {
  await withDirs(async (cfg, src) => {
    await writeMarketplace(`${src}/m`, "mk", [{ name: "one", version: "1.0.0" }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    await claudeByHand(cfg, "plugin", "install", "one@mk");
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    const before = await readExtensions(c);
    await Deno.writeTextFile(`${cfg}/plugins/installed_plugins.json`, "{ half written");
    const failed = await nextPlugins(c, "plugins_inventory_refresh_failed");
    assertMatch(failed.message, /installed_plugins\.json is not valid JSON/);
    assertEquals(failed.trigger, "manual");
    assertEquals((await readExtensions(c)).snapshot, before.snapshot);
  });
});

Deno.test("extensions: a project-scope install is its own registry row, and plugin_update moves it at that scope", async () => {
  await withDirs(async (cfg, src) => {
    const project = `${src}/project`;
    await writeMarketplace(`${src}/m`, "mk", [{ name: "scoped", version: "1.0.0" }]);
    await claudeByHand(cfg, "plugin", "marketplace", "add", `${src}/m`);
    await claudeIn(cfg, project, "plugin", "install", "scoped@mk", "--scope", "project");
    await using t = await testServer(pluginsConfig(cfg));
    const c = await t.ready();
    const read = await readExtensions(c);
    assertEquals(
      read.snapshot?.installed.map((r) => [r.id, r.scope, r.enabled, r.project_path]),
      [["scoped@mk", "project", true, project]],
    );
    await bumpVersion(`${src}/m`, "scoped", "1.5.0");
    c.send({
      kind: "command",
      command: { plugin_update: { plugin_id: "scoped@mk", scope: "user" } },
    });
    const err = await c.next((m) => m.kind === "error");
    assertMatch(String(err.why), /scoped@mk is not installed at scope user/);
    c.send({
      kind: "command",
      command: { plugin_update: { plugin_id: "scoped@mk", scope: "project" } },
    });
    const done = await nextPlugins(c, "plugins_update_run_finished");
    assertEquals(
      done.run.rows.map((r) => [r.scope, r.status, r.installed_version, r.available_version]),
      [
        ["project", "updated", "1.0.0", "1.5.0"],
      ],
    );
    assertEquals(done.snapshot?.installed[0].version, "1.5.0");
  });
});
