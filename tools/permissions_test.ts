import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { assert, assertEquals } from "../tests/assert.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { loadConfigText } from "../server/config/load.ts";
import { catalogueAreas } from "../server/registry.ts";
import { directoryMarketplaces, permissionFlags } from "./permissions.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
const text =
  `[server]\nbind = "10.0.0.5"\nport = 9000\n[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\nconfig_dir = "/srv/claude-a"\n` +
  `[[orgs]]\nname = "o"\naccounts = ["A"]\n[[orgs.projects]]\nname = "p"\npath = "/srv/p"\ndocument_roots = ["/srv/docs"]\n`;

function flags(extra: string) {
  const { config } = loadConfigText(text + extra, "/etc/forge/forge.toml", areas);
  return permissionFlags({
    config,
    configPath: "/etc/forge/forge.toml",
    port: 9000,
    repoRoot: "/opt/forge",
    claudeBin: "/opt/claude",
    home: "/home/u",
    claudeConfigDir: null,
  });
}

// README "Permissions": the network is the bind address alone; files are fenced to the dirs the
// config names when no native addon makes the fence moot.
Deno.test("with the terminal off, every permission is scoped to what the config names", () => {
  const f = flags("[terminal]\nenabled = false\n[browser]\nenabled = false\n");
  assertEquals(f.find((x) => x.startsWith("--allow-net")), "--allow-net=10.0.0.5:9000");
  assertEquals(f.find((x) => x.startsWith("--allow-run")), "--allow-run=git,ps,kill,/opt/claude");
  const read = f.find((x) => x.startsWith("--allow-read="))!.slice("--allow-read=".length).split(
    ",",
  );
  for (
    const dir of [
      "/etc/forge",
      "/home/u/.claude",
      "/srv/claude-a",
      "/srv/p",
      "/srv/docs",
      "/opt/forge",
    ]
  ) assert(read.includes(dir), dir);
  assert(!f.includes("--allow-read") && !f.some((x) => x.startsWith("--allow-ffi")));
  assert(!f.includes("-A") && !f.includes("--allow-all"));
});

Deno.test("with the terminal on, ffi is scoped to node_modules and files are unscoped for node-pty", () => {
  const f = flags("");
  assert(f.includes("--allow-ffi=/opt/forge/node_modules"));
  assert(f.includes("--allow-read") && f.includes("--allow-write"));
  assertEquals(f.find((x) => x.startsWith("--allow-net")), "--allow-net=10.0.0.5:9000,127.0.0.1");
});

// README "Permissions": with the browser on, Chromium runs through setsid at its configured path
// and CDP reaches it on an ephemeral loopback port; off, neither is granted.
Deno.test("the browser adds setsid, its Chromium and loopback only when on", () => {
  const on = flags('[terminal]\nenabled = false\n[browser]\nchromium = "/opt/chromium"\n');
  assertEquals(
    on.find((x) => x.startsWith("--allow-run")),
    "--allow-run=git,ps,kill,/opt/claude,setsid,/opt/chromium,pulseaudio,pactl,parec",
  );
  assertEquals(on.find((x) => x.startsWith("--allow-net")), "--allow-net=10.0.0.5:9000,127.0.0.1");
  assert(on.find((x) => x.startsWith("--allow-read="))!.split(",").includes("/opt/chromium"));
  const off = flags("[terminal]\nenabled = false\n[browser]\nenabled = false\n");
  assert(!off.some((x) => x.includes("setsid") || x.includes("chromium") || x.includes("pulse")));
});

// README "Permissions": with plugins on, the LSP PATH checks read $PATH's directories and the
// scan reads directory marketplaces in place; with plugins off, neither is added.
Deno.test("plugins add PATH's dirs and the directory marketplaces to the read fence, only when on", async () => {
  const cfg = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${cfg}/plugins`);
    await Deno.writeTextFile(
      `${cfg}/plugins/known_marketplaces.json`,
      JSON.stringify({
        here: { source: { source: "directory", path: "/srv/market" } },
        cloned: { source: { source: "git", url: "http://127.0.0.1:1/x.git" } },
      }),
    );
    const sources = directoryMarketplaces([cfg, `${cfg}/absent`]);
    assertEquals(sources, ["/srv/market"]);
    const read = (extra: string) => {
      const { config } = loadConfigText(text + extra, "/etc/forge/forge.toml", areas);
      const f = permissionFlags({
        config,
        configPath: "/etc/forge/forge.toml",
        port: 9000,
        repoRoot: "/opt/forge",
        claudeBin: "/opt/claude",
        home: "/home/u",
        claudeConfigDir: null,
        pathDirs: ["/usr/local/bin", "/usr/bin"],
        pluginSources: sources,
      });
      return f.find((x) => x.startsWith("--allow-read="))!.split("=")[1].split(",");
    };
    const on = read("[terminal]\nenabled = false\n");
    for (const dir of ["/usr/local/bin", "/usr/bin", "/srv/market"]) assert(on.includes(dir), dir);
    const off = read("[terminal]\nenabled = false\n[plugins]\nenabled = false\n");
    for (const dir of ["/usr/local/bin", "/srv/market"]) assert(!off.includes(dir), dir);
  } finally {
    await Deno.remove(cfg, { recursive: true });
  }
});
