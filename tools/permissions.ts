import type { ForgeConfig } from "../server/config/types.ts";
import { upstreamOf } from "../server/gateway/upstream.ts";
import { PS_MODEL_DIR } from "../subsystems/dictate/engines/pocketsphinx_ffi.ts";
import { modelsDir } from "../subsystems/dictate/paths.ts";
import { notifyNetHosts } from "../subsystems/notify/settings.ts";
import { DEFAULT_SPEAKER, isSpeakerId, speakerBinaries } from "../subsystems/voice/engines/mod.ts";
import { expandHome } from "../server/home_path.ts";
import { claudeTasksPath, forgeTempPath } from "../server/temp_dir.ts";

/**
 * V8 flags the launcher and the compiled binary run the server with. After a burst
 * of traffic nothing stays reachable, but V8 keeps the young generation it grew (up to 3 x 16 MiB)
 * committed, and runs no major collection while nothing allocates, so the old generation's
 * garbage stays too. A 1 MiB semi-space bounds the first (a scavenge of 1 MiB is cheap and forge's
 * per-message garbage is small); `--expose-gc` lets server/idle_gc.ts collect once the server is
 * quiet after a burst. `tools/bench/fuzz.ts` measures the RSS left behind with and without them.
 */
export const SERVER_V8_FLAGS = "--max-semi-space-size=1,--expose-gc";

/**
 * The Deno permission flags forge runs under, computed from its config: network limited to the
 * socket it binds, the account gateway's loopback port and the upstream hosts the accounts name,
 * files to the config dir, the Claude config dirs and the configured project
 * paths, subprocesses to the binaries it spawns. docs/permissions.md explains each one.
 */
export function permissionFlags(opts: {
  config: ForgeConfig;
  configPath: string;
  port: number;
  /** The gateway's port (`--gateway-port`, else `[gateway] port`). */
  gatewayPort?: number;
  repoRoot: string;
  claudeBin: string | null;
  home: string;
  claudeConfigDir: string | null;
  /** `$PATH`'s directories: with plugins on, the LSP checks stat commands there. */
  pathDirs?: string[];
  /** forge's own temp dir (`forgeTempPath()`): read and written instead of the whole `/tmp`. */
  tempDir?: string;
  /** Where the seats' CLI writes task output (`claudeTasksPath()`): read by read_call_output. */
  claudeTasksDir?: string;
  /** forge's uid (`Deno.uid()`), which names the CLI's task output dirs. */
  uid?: number;
  /**
   * The `gh` the launcher found on `$PATH`: named by its path; null when there is none, so
   * nothing is named (review then says gh is not installed); unset, the bare name.
   */
  gh?: string | null;
  /** The Chromium the launcher found on `$PATH` (`chromiumPath`), when `browser.chromium` is unset. */
  chromium?: string | null;
  /** Directory marketplaces the plugins roots name (`directoryMarketplaces`): read in place. */
  pluginSources?: string[];
}): string[] {
  const { config } = opts;
  const configDir = opts.configPath.replace(/\/[^/]*$/, "") || ".";
  // Each project's tree, its document roots, and the env_file a seat's launch reads.
  const projectPaths = config.orgs.flatMap((o) =>
    o.projects.flatMap((p) => [
      p.path,
      ...p.document_roots,
      ...(p.env_file?.startsWith("/") ? [p.env_file] : []),
    ])
  );
  const claudeDirs = [
    opts.claudeConfigDir ?? `${opts.home}/.claude`,
    ...config.accounts.flatMap((a) => (a.config_dir ? [a.config_dir] : [])),
  ];
  const terminal = config.areas.terminal?.enabled === true;
  const tempDir = opts.tempDir ?? forgeTempPath();
  // The browser (on unless `browser.enabled = false`) runs one Chromium (`browser.chromium`, else
  // the one the launcher found on PATH) in its own session (Deno's `detached`, no setsid binary),
  // speaks CDP to it on an ephemeral loopback port, and runs its own PulseAudio (pulseaudio,
  // pactl, parec) for page audio, which has no switch of its own. docs/permissions.md.
  const browser = config.areas.browser?.enabled !== false;
  const configuredChromium = config.areas.browser?.chromium;
  const chromium = typeof configuredChromium === "string" && configuredChromium !== ""
    ? [configuredChromium]
    : opts.chromium
    ? [opts.chromium]
    : [];
  const dictate = dictatePermissions(config, opts.home);
  // The plugins subsystem (on unless `plugins.enabled = false`) resolves LSP commands on PATH and
  // scans directory marketplaces where they are. docs/permissions.md.
  const plugins = config.areas.plugins?.enabled !== false
    ? [...(opts.pathDirs ?? []), ...(opts.pluginSources ?? [])]
    : [];
  const read = unique([
    configDir,
    ...claudeDirs,
    ...projectPaths,
    opts.repoRoot,
    tempDir,
    ...claudeTaskDirs(config, opts),
    ...plugins,
    ...(browser ? chromium : []),
    ...dictate.read,
  ]);
  const write = unique([configDir, ...claudeDirs, tempDir, ...dictate.write]);
  // Deno refuses /proc reads without --allow-all, so process walks and session kills go through
  // `ps` and `kill` instead.
  const run = unique([
    "git",
    "ps",
    "kill",
    ...(opts.claudeBin ? [opts.claudeBin] : ["claude"]),
    // Review (on unless `review.enabled = false`) asks `gh` for the `pr` and `closes` rows.
    ...(config.areas.review?.enabled !== false && opts.gh !== null ? [opts.gh ?? "gh"] : []),
    ...dictate.run,
    ...ttsRun(config),
    // home's cli_version.latest asks npm's own client (server/areas/cli_version.ts).
    ...(config.claude.check_latest ? [config.claude.npm] : []),
    ...(browser ? [...chromium, "pulseaudio", "pactl", "parec"] : []),
  ]);
  // The gateway listens on loopback and forwards to each account's upstream. With no accounts
  // it binds nothing yet, but a reload that adds the first one binds then, and the process's
  // flags cannot widen after launch: so its port is always allowed.
  const gatewayPort = opts.gatewayPort ?? Number(config.areas.gateway?.port ?? 8787);
  const net = unique([
    `${hostForFlag(config.server.bind)}:${opts.port}`,
    `127.0.0.1:${gatewayPort}`,
    ...config.accounts.map((a) => upstreamHost(upstreamOf(a))),
    ...vaultNet(config),
    ...dictate.net,
    ...connectorHosts(config),
    ...statusHost(config),
    // [notify]: its ntfy and Gotify servers and, with Web Push on, the push services' hosts
    // (docs/notify.md "Permissions").
    ...notifyNetHosts(config),
    ...(browser ? ["127.0.0.1"] : []),
  ]);
  const flags = [
    `--allow-net=${net.join(",")}`,
    // The seats' CLI inherits forge's environment, and npm packages read variables of their own.
    "--allow-env",
    `--allow-run=${run.join(",")}`,
    "--allow-sys=hostname,osRelease,uid,gid,homedir,cpus",
  ];
  // Deno's pointer API (PocketSphinx's argv and its words) needs the UNSCOPED flag; a scoped one
  // only lets a library open. Dictation therefore widens FFI to all, as the terminal widens files.
  if (dictate.ffi) flags.push("--allow-ffi");
  else if (terminal) flags.push(`--allow-ffi=${opts.repoRoot}/node_modules`);
  if (terminal) {
    // node-pty is a native addon: it needs --allow-ffi, and its tty streams need UNSCOPED read and
    // write (measured). An addon's native code is outside Deno's sandbox anyway, so with the
    // terminal on the file fence is advisory; turn [terminal] off to keep it.
    flags.push("--allow-read", "--allow-write");
  } else {
    flags.push(`--allow-read=${read.join(",")}`, `--allow-write=${write.join(",")}`);
  }
  return flags;
}

/**
 * The connectors' servers: the `[gotify]` URL and each `[[slack]]` workspace's Web API
 * (Slack's own unless `api_url` names another), as `host:port` - nothing else on the network.
 */
export function connectorHosts(config: ForgeConfig): string[] {
  const urls = [
    config.areas.gotify?.url,
    // Slack's own API serves files (downloads and uploads) from files.slack.com.
    ...(config.slack ?? []).flatMap((w) =>
      w.api_url ? [w.api_url] : ["https://slack.com/api/", "https://files.slack.com/"]
    ),
  ];
  return urls.flatMap((u) => {
    if (typeof u !== "string") return [];
    try {
      const url = new URL(u);
      const port = url.port ||
        (url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80");
      return [`${url.hostname}:${port}`];
    } catch {
      return []; // not a URL: the loader refused it already, no host to allow
    }
  });
}

/**
 * The status page's host (`[server] status_url`, Anthropic's unless it names another; empty = no
 * poll, nothing allowed): home's service_status reads nothing else.
 */
export function statusHost(config: ForgeConfig): string[] {
  const url = config.server.status_url;
  return url ? [upstreamHost(url)].filter(Boolean) : [];
}

/** `host:port` of an upstream URL, the port made explicit (443 for https, 80 for http). */
function upstreamHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return ""; // not a URL: the loader refused it already, no host to allow
  }
}

/**
 * What `[tts]` adds when it is on: only the binary of the configured speaking engine (flite when
 * `speaking_model` is unset or names no variant). Another engine picked live is refused in words
 * until a restart widens this.
 */
function ttsRun(config: ForgeConfig): readonly string[] {
  const area = config.areas.tts ?? {};
  if (area.enabled !== true) return [];
  const pin = area.speaking_model;
  return speakerBinaries(isSpeakerId(pin) ? pin : DEFAULT_SPEAKER);
}

/**
 * What `[dictate]` adds when it is on: FFI for PocketSphinx's two Debian libraries and the npm
 * addons (onnxruntime-node for the VAD, whisper.cpp; unscoped, see above), read of the model dirs, write of
 * `models_dir` (installs), read of `import_dir` and a catalogue file (or net to a catalogue URL's
 * host), and `parec`/`pactl` only when `server_capture` lets dictate_start record.
 */
function dictatePermissions(config: ForgeConfig, home: string) {
  const area = config.areas.dictate ?? {};
  if (area.enabled !== true) return { ffi: false, read: [], write: [], run: [], net: [] };
  const models = modelsDir(area.models_dir, home);
  const expand = (p: unknown) =>
    typeof p !== "string" || p.length === 0 ? [] : [expandHome(p, home)];
  const feed = typeof area.catalogue === "string" ? area.catalogue : "";
  const url = /^https?:\/\//.test(feed) ? new URL(feed) : null;
  return {
    ffi: true,
    net: url
      ? [url.port ? url.host : `${url.hostname}:${url.protocol === "https:" ? 443 : 80}`]
      : [],
    read: [
      PS_MODEL_DIR,
      ...(models ? [models] : []),
      ...expand(area.import_dir),
      ...(url ? [] : expand(feed)),
    ],
    write: models ? [models] : [],
    run: area.server_capture === true ? ["parec", "pactl"] : [],
  };
}

/**
 * The vault server's host and port, when `[vault]` is on and names one: the only address the
 * vault's client reaches (a self-hosted server serves attachments itself). docs/permissions.md.
 */
function vaultNet(config: ForgeConfig): string[] {
  const vault = config.areas.vault;
  if (vault?.enabled !== true || typeof vault.server_url !== "string") return [];
  try {
    const url = new URL(vault.server_url);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return [`${url.hostname}:${port}`];
  } catch {
    return []; // the vault refuses the URL in its own words at use
  }
}

/**
 * Where the seats' CLI writes background tasks' output (read_call_output reads it): `claude-<uid>`
 * under forge's own temp base, and under each `CLAUDE_CODE_TMPDIR` or `TMPDIR` an `env` table of
 * the config names (`[env]`, an account's, a project's), since a seat's table may move it.
 */
function claudeTaskDirs(
  config: ForgeConfig,
  opts: { claudeTasksDir?: string; uid?: number },
): string[] {
  const uid = opts.uid ?? Deno.uid() ?? 0;
  const tables = [
    config.env,
    ...config.accounts.map((a) => a.env),
    ...config.orgs.flatMap((o) => o.projects.map((p) => p.env)),
  ];
  const named = tables.flatMap((t) =>
    ["CLAUDE_CODE_TMPDIR", "TMPDIR"].flatMap((key) =>
      t?.[key]?.startsWith("/")
        ? [claudeTasksPath((n) => (n === key ? t[key] : undefined), uid)]
        : []
    )
  );
  return [opts.claudeTasksDir ?? claudeTasksPath(undefined, uid), ...named];
}

function hostForFlag(bind: string): string {
  return bind.includes(":") ? `[${bind}]` : bind;
}

function unique(items: string[]): string[] {
  return [...new Set(items.filter((s) => s.length > 0))];
}

/**
 * The directory marketplaces the plugins roots under `configDirs` name in
 * `plugins/known_marketplaces.json` (source kind `directory`): the CLI reads them in place, so the
 * scan must too. One added after launch is read once forge restarts; until then its health row
 * says forge may not read it.
 */
export function directoryMarketplaces(configDirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of configDirs) {
    let known: Record<string, { source?: { source?: unknown; path?: unknown } }>;
    try {
      known = JSON.parse(Deno.readTextFileSync(`${dir}/plugins/known_marketplaces.json`));
    } catch {
      continue; // no marketplace file in this config dir (or not one the CLI wrote whole)
    }
    for (const entry of Object.values(known ?? {})) {
      const path = entry?.source?.path;
      if (entry?.source?.source === "directory" && typeof path === "string") out.push(path);
    }
  }
  return unique(out);
}
