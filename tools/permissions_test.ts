import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { assert, assertEquals } from "../tests/assert.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { loadConfigText } from "../server/config/load.ts";
import { catalogueAreas } from "../server/registry.ts";
import { directoryMarketplaces, permissionFlags } from "./permissions.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
const text =
  `[server]\nbind = "10.0.0.5"\nport = 9000\nstatus_url = ""\n[claude]\ncheck_latest = false\n[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\nconfig_dir = "/srv/claude-a"\n` +
  `[[orgs]]\nname = "o"\naccounts = ["A"]\n[[orgs.projects]]\nname = "p"\npath = "/srv/p"\ndocument_roots = ["/srv/docs"]\n`;

/** The flags a whole forge.toml gets; `opts` adds the launcher's PATH and marketplace reads. */
function flagsOf(
  toml: string,
  opts: {
    pathDirs?: string[];
    pluginSources?: string[];
    chromium?: string | null;
    gh?: string | null;
  } = {},
) {
  const { config } = loadConfigText(toml, "/etc/forge/forge.toml", areas);
  return permissionFlags({
    config,
    configPath: "/etc/forge/forge.toml",
    port: 9000,
    repoRoot: "/opt/forge",
    claudeBin: "/opt/claude",
    home: "/home/u",
    claudeConfigDir: null,
    tempDir: "/tmp/forge-1000",
    claudeTasksDir: "/tmp/claude-1000",
    uid: 1000,
    ...opts,
  });
}

/** The flags of the shared config above plus `extra`. */
const flags = (extra: string) => flagsOf(text + extra);

/** The one flag of `f` named `name` (`--allow-net`), with its scope. */
const flagNamed = (f: string[], name: string) => f.find((x) => x.startsWith(name));

/** The comma-separated scope of `f`'s flag `name` (`--allow-read`), as a list. */
const scopeOf = (f: string[], name: string) =>
  flagNamed(f, `${name}=`)!.slice(name.length + 1).split(",");

/** The shared config's network: the socket, the gateway's loopback port, account A's upstream. */
const BASE_NET = "--allow-net=10.0.0.5:9000,127.0.0.1:8787,api.anthropic.com:443";

// docs/permissions.md: the network is the bind address alone; files are fenced to the dirs the
// config names when no native addon makes the fence moot.
Deno.test("with the terminal off, every permission is scoped to what the config names", () => {
  const f = flags("[terminal]\nenabled = false\n[browser]\nenabled = false\n");
  // The socket, the gateway's loopback port, and account A's upstream (no base_url: the API's).
  assertEquals(
    flagNamed(f, "--allow-net"),
    BASE_NET,
  );
  assertEquals(flagNamed(f, "--allow-run"), "--allow-run=git,ps,kill,/opt/claude,gh");
  // The config dir, the Claude config dirs, the project's tree and document root, the repo, and
  // forge's temp dir and the CLI's task output dir (not /tmp whole).
  assertEquals(scopeOf(f, "--allow-read"), [
    "/etc/forge",
    "/home/u/.claude",
    "/srv/claude-a",
    "/srv/p",
    "/srv/docs",
    "/opt/forge",
    "/tmp/forge-1000",
    "/tmp/claude-1000",
  ]);
  assert(!f.includes("--allow-read") && !f.some((x) => x.startsWith("--allow-ffi")));
  assert(!f.includes("-A") && !f.includes("--allow-all"));
});

Deno.test("with the terminal on, ffi is scoped to node_modules and files are unscoped for node-pty", () => {
  const f = flags("");
  assert(f.includes("--allow-ffi=/opt/forge/node_modules"));
  assert(f.includes("--allow-read") && f.includes("--allow-write"));
});

// docs/permissions.md: the gateway adds its own port and exactly the upstreams the accounts name.
Deno.test("the gateway's port and each account's upstream host are the only extra net grants", () => {
  const f = flags(
    `[browser]\nenabled = false\n[gateway]\nport = 8900\n[[accounts]]\ndisplay_name = "B"\nprovider = "openrouter"\n` +
      `token = "t"\nbase_url = "https://openrouter.example/api"\n[[accounts]]\n` +
      `display_name = "C"\nprovider = "anthropic"\ntoken = "k"\nbase_url = "http://127.0.0.1:4100"\n`,
  );
  assertEquals(
    flagNamed(f, "--allow-net"),
    "--allow-net=10.0.0.5:9000,127.0.0.1:8900,api.anthropic.com:443,openrouter.example:443," +
      "127.0.0.1:4100",
  );
});

// docs/permissions.md: the vault adds its configured server's host and port, and nothing else.
Deno.test("with the vault on, the network adds the configured vault server alone", () => {
  const on = flags(
    `[terminal]\nenabled = false\n[browser]\nenabled = false\n[vault]\nenabled = true\nserver_url = "https://vault.example.invalid"\nemail = "a@b.invalid"\n`,
  );
  assertEquals(flagNamed(on, "--allow-net"), `${BASE_NET},vault.example.invalid:443`);
  const off = flags(
    `[terminal]\nenabled = false\n[browser]\nenabled = false\n[vault]\nenabled = false\nserver_url = "https://vault.example.invalid:8443"\n`,
  );
  assertEquals(flagNamed(off, "--allow-net"), BASE_NET);
});

// docs/permissions.md: with the browser on, the one Chromium (configured, else the one the
// launcher found on PATH) runs in its own session without a setsid trampoline, CDP reaches it on
// an ephemeral loopback port, and page audio runs PulseAudio's three; off, none is granted.
Deno.test("the browser adds its one Chromium, PulseAudio's binaries and loopback only when on", () => {
  const on = flags('[terminal]\nenabled = false\n[browser]\nchromium = "/opt/chromium"\n');
  assertEquals(
    flagNamed(on, "--allow-run"),
    "--allow-run=git,ps,kill,/opt/claude,gh,/opt/chromium,pulseaudio,pactl,parec",
  );
  assertEquals(flagNamed(on, "--allow-net"), `${BASE_NET},127.0.0.1`);
  assert(flagNamed(on, "--allow-read=")!.split(",").includes("/opt/chromium"));
  const off = flags("[terminal]\nenabled = false\n[browser]\nenabled = false\n");
  assert(!off.some((x) => x.includes("setsid") || x.includes("chromium") || x.includes("pulse")));
});

Deno.test("unconfigured, the browser names the launcher's one Chromium, not every PATH dir's", () => {
  const found = flagsOf(text + "[terminal]\nenabled = false\n[plugins]\nenabled = false\n", {
    pathDirs: ["/usr/local/bin", "/usr/bin"],
    chromium: "/usr/bin/chromium",
  });
  assertEquals(
    flagNamed(found, "--allow-run"),
    "--allow-run=git,ps,kill,/opt/claude,gh,/usr/bin/chromium,pulseaudio,pactl,parec",
  );
  const read = scopeOf(found, "--allow-read");
  assertEquals(read.filter((p) => p.includes("chromium")), ["/usr/bin/chromium"]);
  // None found: nothing is named, and the browser says at start that it has no Chromium.
  const none = flagsOf(text + "[terminal]\nenabled = false\n", { chromium: null });
  assertEquals(
    flagNamed(none, "--allow-run"),
    "--allow-run=git,ps,kill,/opt/claude,gh,pulseaudio,pactl,parec",
  );
});

// docs/permissions.md: with plugins on, the LSP PATH checks read $PATH's directories and the
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
    const read = (extra: string) =>
      flagNamed(
        flagsOf(text + extra, { pathDirs: ["/usr/local/bin", "/usr/bin"], pluginSources: sources }),
        "--allow-read=",
      )!.split("=")[1].split(",");
    const on = read("[terminal]\nenabled = false\n");
    for (const dir of ["/usr/local/bin", "/usr/bin", "/srv/market"]) assert(on.includes(dir), dir);
    const off = read("[terminal]\nenabled = false\n[plugins]\nenabled = false\n");
    for (const dir of ["/usr/local/bin", "/srv/market"]) assert(!off.includes(dir), dir);
  } finally {
    await Deno.remove(cfg, { recursive: true });
  }
});

// docs/permissions.md: the connectors add the servers the config names, nothing else.
Deno.test("connectors: the net reaches the [gotify] URL and each workspace's Slack API only", () => {
  const f = flags(
    `[browser]\nenabled = false\n[gotify]\nurl = "https://push.example.org"\nclient_token = "C1"\n` +
      `[[slack]]\nworkspace = "acme"\ntoken = "xoxp-1"\n` +
      `[[slack]]\nworkspace = "lab"\ntoken = "xoxp-2"\napi_url = "http://127.0.0.1:4000/api/"\n`,
  );
  assertEquals(
    flagNamed(f, "--allow-net"),
    `${BASE_NET},push.example.org:443,` +
      "slack.com:443,files.slack.com:443,127.0.0.1:4000",
  );
});

// docs/notify.md "Permissions": [notify] adds its ntfy and Gotify servers and, with Web Push on,
// the push hosts (the major browsers' by default), only when pushes are on.
Deno.test("notify: the net reaches the configured ntfy and Gotify servers and the push hosts only", () => {
  const net = (extra: string) =>
    flagNamed(flags(`[browser]\nenabled = false\n${extra}`), "--allow-net");
  const servers = `[notify.ntfy]\nurl = "https://ntfy.example.org"\ntopic = "t"\n` +
    `[notify.gotify]\nurl = "http://10.0.0.7:8080"\napp_token = "A1"\n`;
  assertEquals(
    net(`[notify]\nenabled = true\n${servers}`),
    `${BASE_NET},ntfy.example.org:443,10.0.0.7:8080`,
  );
  assertEquals(
    net(`[notify]\nenabled = true\n[notify.webpush]\nenabled = true\nsubject = "mailto:a@b.c"\n`),
    `${BASE_NET},fcm.googleapis.com:443,updates.push.services.mozilla.com:443,web.push.apple.com:443`,
  );
  assertEquals(
    net(
      `[notify]\nenabled = true\n[notify.webpush]\nenabled = true\n` +
        `push_hosts = ["*.notify.windows.com", "127.0.0.1:4400"]\n`,
    ),
    `${BASE_NET},*.notify.windows.com:443,127.0.0.1:4400`,
  );
  assertEquals(
    net(`[notify]\nenabled = false\n${servers}`),
    BASE_NET,
    "pushes off: nothing of theirs",
  );
});

Deno.test("with dictation on: ffi, the model dirs, the import dir, a feed's host; parec only when server_capture says so", () => {
  const off = "[terminal]\nenabled = false\n[browser]\nenabled = false\n";
  const f = flags(
    `${off}[dictate]\nenabled = true\nmodels_dir = "~/models"\nimport_dir = "/srv/import"\n` +
      `catalogue = "https://feeds.example.test/speech.json"\n`,
  );
  assert(f.includes("--allow-ffi"));
  const read = flagNamed(f, "--allow-read=")!;
  for (const dir of ["/usr/share/pocketsphinx/model/en-us", "/home/u/models", "/srv/import"]) {
    assert(read.includes(dir), dir);
  }
  assert(flagNamed(f, "--allow-write=")!.includes("/home/u/models"));
  assertEquals(
    flagNamed(f, "--allow-net"),
    // (the socket, the account gateway's port and account A's upstream, then the catalogue)
    `${BASE_NET},feeds.example.test:443`,
  );
  assert(!flagNamed(f, "--allow-run")!.includes("parec"));
  const capture = flags(`${off}[dictate]\nenabled = true\nserver_capture = true\n`);
  assert(flagNamed(capture, "--allow-run")!.endsWith(",parec,pactl"));
  // Off, dictation adds nothing.
  assert(!flags(off).some((x) => x.startsWith("--allow-ffi")));
});

Deno.test("with [tts] on: only the configured speaking engine's binary may run (flite by default)", () => {
  const off = "[terminal]\nenabled = false\n";
  const run = (toml: string) => flagNamed(flags(off + toml), "--allow-run=")!;
  assert(!run("").includes("flite"), "off adds nothing");
  assert(run("[tts]\nenabled = true\n").split(/[=,]/).includes("flite"));
  const espeak = run('[tts]\nenabled = true\nspeaking_model = "espeak-ng"\n').split(/[=,]/);
  assert(espeak.includes("espeak-ng") && !espeak.includes("flite"), espeak.join(","));
  assert(run('[tts]\nenabled = true\nspeaking_model = "nope"\n').split(/[=,]/).includes("flite"));
});

// The status page's host alone: Anthropic's by default, the one [server] status_url names, and
// nothing when it is empty (the poll is off).
Deno.test("home's status poll adds the status page's host, and nothing when it is off", () => {
  const net = (server: string) =>
    flagNamed(
      flagsOf(`[server]\nport = 9000\n${server}[browser]\nenabled = false\n`),
      "--allow-net",
    );
  assertEquals(net(""), "--allow-net=127.0.0.1:9000,127.0.0.1:8787,status.claude.com:443");
  assertEquals(
    net(`status_url = "http://127.0.0.1:4555/api/v2/status.json"\n`),
    "--allow-net=127.0.0.1:9000,127.0.0.1:8787,127.0.0.1:4555",
  );
  assertEquals(net(`status_url = ""\n`), "--allow-net=127.0.0.1:9000,127.0.0.1:8787");
});

// home's cli_version.latest runs npm's own client: allowed while [claude] check_latest is on.
Deno.test("the latest-claude check adds its npm to the binaries forge may run, only when on", () => {
  const run = (claude: string) =>
    flagNamed(
      flagsOf(`[server]\nport = 9000\n[browser]\nenabled = false\n${claude}`),
      "--allow-run",
    );
  assertEquals(run(""), "--allow-run=git,ps,kill,/opt/claude,gh,npm");
  assertEquals(
    run(`[claude]\nnpm = "/usr/local/bin/npm"\n`),
    "--allow-run=git,ps,kill,/opt/claude,gh,/usr/local/bin/npm",
  );
  assertEquals(run(`[claude]\ncheck_latest = false\n`), "--allow-run=git,ps,kill,/opt/claude,gh");
});

// Review's `pr` and `closes` rows ask gh: allowed while review is on (the default), never off.
Deno.test("review adds gh to the binaries forge may run, only when on", () => {
  const off = "[terminal]\nenabled = false\n[browser]\nenabled = false\n";
  assertEquals(flagNamed(flags(off), "--allow-run"), "--allow-run=git,ps,kill,/opt/claude,gh");
  assertEquals(
    flagNamed(flags(`${off}[review]\nenabled = false\n`), "--allow-run"),
    "--allow-run=git,ps,kill,/opt/claude",
  );
  // The launcher names the gh it found by its path, and none when there is none.
  const found = flagsOf(text + off, { gh: "/usr/bin/gh" });
  assertEquals(flagNamed(found, "--allow-run"), "--allow-run=git,ps,kill,/opt/claude,/usr/bin/gh");
  const none = flagsOf(text + off, { gh: null });
  assertEquals(flagNamed(none, "--allow-run"), "--allow-run=git,ps,kill,/opt/claude");
});

// A seat's launch reads its project's env_file (server/workspace/seats/launch.ts): with the file
// fence up, each configured one is readable, and only those.
Deno.test("each project's absolute env_file is added to the read fence", () => {
  const read = (toml: string) => scopeOf(flagsOf(toml), "--allow-read");
  const base = '[terminal]\nenabled = false\n[browser]\nenabled = false\n[[orgs]]\nname = "o"\n';
  const with_ = read(
    `${base}[[orgs.projects]]\nname = "p"\npath = "/srv/p"\nenv_file = "/etc/p.env"\n` +
      `[[orgs.projects]]\nname = "q"\npath = "/srv/q"\nenv_file = "~/q.env"\n` +
      `[[orgs.projects]]\nname = "r"\npath = "/srv/r"\nenv_file = "rel.env"\n`,
  );
  // (`~` is expanded by the loader, against the real home)
  assert(with_.includes("/etc/p.env") && with_.some((p) => /^\/.*\/q\.env$/.test(p)));
  assert(!with_.some((p) => p.endsWith("rel.env")), "a relative env_file is ignored, not read");
});

// Not the whole shared /tmp: forge's own temp dir, read and written, and the CLI's task output
// (read_call_output), read.
Deno.test("temp files: forge's own temp dir and the CLI's task output dir, never /tmp whole", () => {
  const f = flags("[terminal]\nenabled = false\n[browser]\nenabled = false\n");
  const read = scopeOf(f, "--allow-read");
  const write = scopeOf(f, "--allow-write");
  assertEquals(read.filter((p) => p.startsWith("/tmp")), ["/tmp/forge-1000", "/tmp/claude-1000"]);
  assertEquals(write, ["/etc/forge", "/home/u/.claude", "/srv/claude-a", "/tmp/forge-1000"]);
});

// A seat's env table that moves the CLI's temp base moves its task output: that one is read too.
Deno.test("a CLAUDE_CODE_TMPDIR or TMPDIR an env table names adds its claude-<uid> to the read fence", () => {
  const f = flags(
    `[terminal]\nenabled = false\n[browser]\nenabled = false\n[env]\nCLAUDE_CODE_TMPDIR = "/srv/tmp"\n` +
      `[[orgs]]\nname = "q"\n[[orgs.projects]]\nname = "x"\npath = "/srv/x"\n` +
      `env = { TMPDIR = "/var/tmp/x" }\n`,
  );
  const read = scopeOf(f, "--allow-read");
  assertEquals(read.filter((p) => p.includes("/claude-1000")), [
    "/tmp/claude-1000",
    "/srv/tmp/claude-1000",
    "/var/tmp/x/claude-1000",
  ]);
});
