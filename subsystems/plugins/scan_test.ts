import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { ScanFailure, scanInventory } from "./scan.ts";

// The scan reads CLI 2.1.332's layout under its config dir off disk (spec: extensions > snapshot,
// lsp). These fixtures are written in that layout by hand so each rule can be pinned: what the
// real CLI writes is covered by the socket tests in tests/plugins_*_test.ts.

const json = (v: unknown) => JSON.stringify(v, null, 2);

async function put(path: string, text: string) {
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(path, text);
}

async function git(cwd: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.invalid", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "null",
  }).output();
  assert(out.success, `git ${args.join(" ")}`);
}

Deno.test("scan: registry rows, components, versions, enabled state, health and lsp rows", async () => {
  const cfg = await Deno.makeTempDir();
  try {
    const P = `${cfg}/plugins`;
    const clone = `${P}/marketplaces/gm`;
    const outside = `${cfg}/elsewhere/drifted`;
    const project = `${cfg}/proj`;
    // A cloned marketplace: `full` has a version in plugin.json, `nover` has none anywhere.
    await put(
      `${clone}/.claude-plugin/marketplace.json`,
      json({
        name: "gm",
        plugins: [
          {
            name: "full",
            source: "./plugins/full",
            version: "1.0.0",
            lspServers: { a: { command: "sh" } },
          },
          { name: "nover", source: "./plugins/nover" },
          { name: "gone", source: "./plugins/gone", version: "1.0.0" },
        ],
      }),
    );
    await put(
      `${clone}/plugins/full/.claude-plugin/plugin.json`,
      json({ name: "full", version: "1.1.0" }),
    );
    await put(`${clone}/plugins/nover/.claude-plugin/plugin.json`, json({ name: "nover" }));
    await git(clone, "init", "-q", "-b", "main", ".");
    await git(clone, "add", "-A");
    await git(clone, "commit", "-qm", "one");
    const head = (await Deno.readTextFile(`${clone}/.git/refs/heads/main`)).trim();
    await put(`${outside}/.claude-plugin/marketplace.json`, json({ name: "drifted", plugins: [] }));
    // The installed copies: the current one, and an older one the CLI marked orphaned.
    const cache = `${P}/cache/gm/full/1.0.0`;
    await put(
      `${cache}/.claude-plugin/plugin.json`,
      json({
        name: "full",
        version: "1.0.0",
        lspServers: { b: { command: "no-such-lsp-binary-anywhere" } },
      }),
    );
    await put(`${cache}/skills/s1/SKILL.md`, "x");
    await put(`${cache}/skills/not-a-skill/README.md`, "x");
    await put(`${cache}/commands/c1.md`, "x");
    await put(`${cache}/agents/a1.md`, "x");
    await put(`${cache}/hooks/hooks.json`, json({ hooks: { Stop: [], PreToolUse: [] } }));
    await put(`${cache}/.lsp.json`, json({ c: { command: "/bin/sh" } }));
    await put(`${P}/cache/gm/full/0.9.0/.orphaned_at`, "1764680000000");
    await put(`${P}/cache/gm/nover/abc/.claude-plugin/plugin.json`, json({ name: "nover" }));
    await put(`${project}/.claude/settings.json`, json({ enabledPlugins: { "nover@gm": false } }));
    await put(
      `${P}/known_marketplaces.json`,
      json({
        gm: { source: { source: "git", url: "http://127.0.0.1:1/gm.git" }, installLocation: clone },
        drifted: {
          source: { source: "git", url: "https://me:s3cret@h.invalid/r.git" },
          installLocation: outside,
        },
        missing: {
          source: { source: "git", url: "http://x/y.git" },
          installLocation: `${P}/marketplaces/missing`,
        },
      }),
    );
    await put(
      `${P}/installed_plugins.json`,
      json({
        version: 2,
        plugins: {
          "full@gm": [{
            scope: "user",
            installPath: cache,
            version: "1.0.0",
            installedAt: "t0",
            lastUpdated: "t1",
          }],
          "nover@gm": [{
            scope: "project",
            installPath: `${P}/cache/gm/nover/abc`,
            version: "abc",
            projectPath: project,
          }],
          "gone@gm": [{ scope: "user", installPath: `${P}/cache/gm/gone/1.0.0`, version: "1.0.0" }],
        },
      }),
    );
    await put(`${cfg}/settings.json`, json({ enabledPlugins: { "gone@gm": false } }));

    const { snapshot, lsp } = await scanInventory(cfg, "/usr/bin:/bin");
    assertEquals(snapshot.installed.map((r) => [r.id, r.scope, r.enabled, r.project_path]), [
      ["full@gm", "user", true, null],
      ["gone@gm", "user", false, null],
      ["nover@gm", "project", false, project],
    ]);
    const [full, gone, nover] = snapshot.components;
    assertEquals([full.skills, full.commands, full.agents, full.hooks, full.mcp], [["s1"], ["c1"], [
      "a1",
    ], [
      "PreToolUse",
      "Stop",
    ], false]);
    // As the CLI's update compares: the clone's plugin.json version, else the entry's, else HEAD.
    assertEquals(full.available_version, "1.1.0");
    assertEquals(nover.available_version, head.slice(0, 12));
    assertEquals(full.lsp_servers, ["a", "b", "c"], "all three declaration places count");
    assertMatch(gone.load_error!, /install directory .* is missing/);
    assertEquals(full.load_error, null);
    assertEquals(lsp.map((r) => [r.server, r.command, r.on_path]), [
      ["a", "sh", true],
      ["b", "no-such-lsp-binary-anywhere", false],
      ["c", "/bin/sh", true],
    ]);
    assertEquals(
      snapshot.marketplace_health.map((
        h,
      ) => [h.name, h.available, h.drifted, h.load_error !== null]),
      [
        ["drifted", 0, true, false],
        ["gm", 3, false, false],
        ["missing", 0, false, true],
      ],
    );
    // A token in a source URL never reaches a frame.
    assertEquals(
      snapshot.marketplaces.find((m) => m.name === "drifted")?.repo,
      "https://***@h.invalid/r.git",
    );
    assertEquals(
      snapshot.marketplace.map((o) => o.plugin_id),
      ["full@gm", "nover@gm", "gone@gm"].sort(),
    );
    assertEquals(snapshot.token_costs, {});
  } finally {
    await Deno.remove(cfg, { recursive: true });
  }
});

Deno.test("scan: an empty config dir is an empty inventory; an unreadable registry is a ScanFailure", async () => {
  const cfg = await Deno.makeTempDir();
  try {
    const empty = await scanInventory(cfg, "");
    assertEquals(empty.snapshot.installed, []);
    assertEquals(empty.snapshot.marketplaces, []);
    await put(`${cfg}/plugins/installed_plugins.json`, "{ not json");
    await assertRejects(() => scanInventory(cfg, ""), /installed_plugins\.json is not valid JSON/);
    try {
      await scanInventory(cfg, "");
    } catch (err) {
      assert(err instanceof ScanFailure);
    }
  } finally {
    await Deno.remove(cfg, { recursive: true });
  }
});
