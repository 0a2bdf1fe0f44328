import type { ForgeConfig } from "../server/config/types.ts";

/**
 * The Deno permission flags forge runs under, computed from its config: network limited to the
 * socket it binds, files to the config dir, the Claude config dirs and the configured project
 * paths, subprocesses to the binaries it spawns. README "Permissions" explains each one.
 */
export function permissionFlags(opts: {
  config: ForgeConfig;
  configPath: string;
  port: number;
  repoRoot: string;
  claudeBin: string | null;
  home: string;
  claudeConfigDir: string | null;
  /** `$PATH`'s directories: with plugins on, the LSP checks stat commands there. */
  pathDirs?: string[];
  /** Directory marketplaces the plugins roots name (`directoryMarketplaces`): read in place. */
  pluginSources?: string[];
}): string[] {
  const { config } = opts;
  const configDir = opts.configPath.replace(/\/[^/]*$/, "") || ".";
  const projectPaths = config.orgs.flatMap((o) =>
    o.projects.flatMap((p) => [p.path, ...p.document_roots])
  );
  const claudeDirs = [
    opts.claudeConfigDir ?? `${opts.home}/.claude`,
    ...config.accounts.flatMap((a) => (a.config_dir ? [a.config_dir] : [])),
  ];
  const terminal = config.areas.terminal?.enabled === true;
  // The browser (on unless `browser.enabled = false`) runs Chromium through `setsid` (its own
  // process group), speaks CDP to it on an ephemeral loopback port, and runs its own PulseAudio
  // (pulseaudio, pactl, parec) for page audio. README "Permissions".
  const browser = config.areas.browser?.enabled !== false;
  const chromium = typeof config.areas.browser?.chromium === "string"
    ? [config.areas.browser.chromium]
    : (opts.pathDirs ?? []).map((d) => `${d}/chromium`);
  // The plugins subsystem (on unless `plugins.enabled = false`) resolves LSP commands on PATH and
  // scans directory marketplaces where they are. README "Permissions".
  const plugins = config.areas.plugins?.enabled !== false
    ? [...(opts.pathDirs ?? []), ...(opts.pluginSources ?? [])]
    : [];
  const read = unique([
    configDir,
    ...claudeDirs,
    ...projectPaths,
    opts.repoRoot,
    "/tmp",
    ...plugins,
    ...(browser ? chromium : []),
  ]);
  const write = unique([configDir, ...claudeDirs, "/tmp"]);
  // Deno refuses /proc reads without --allow-all, so process walks and session kills go through
  // `ps` and `kill` instead.
  const run = unique([
    "git",
    "ps",
    "kill",
    ...(opts.claudeBin ? [opts.claudeBin] : ["claude"]),
    ...(browser ? ["setsid", ...chromium, "pulseaudio", "pactl", "parec"] : []),
  ]);
  const net = [
    `${hostForFlag(config.server.bind)}:${opts.port}`,
    ...(browser ? ["127.0.0.1"] : []),
  ];
  const flags = [
    `--allow-net=${unique(net).join(",")}`,
    // The seats' CLI inherits forge's environment, and npm packages read variables of their own.
    "--allow-env",
    `--allow-run=${run.join(",")}`,
    "--allow-sys=hostname,osRelease,uid,gid,homedir,cpus",
  ];
  if (terminal) {
    // node-pty is a native addon: it needs --allow-ffi, and its tty streams need UNSCOPED read and
    // write (feasibility §3). An addon's native code is outside Deno's sandbox anyway, so with the
    // terminal on the file fence is advisory; turn [terminal] off to keep it.
    flags.push(`--allow-ffi=${opts.repoRoot}/node_modules`, "--allow-read", "--allow-write");
  } else {
    flags.push(`--allow-read=${read.join(",")}`, `--allow-write=${write.join(",")}`);
  }
  return flags;
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
      continue;
    }
    for (const entry of Object.values(known ?? {})) {
      const path = entry?.source?.path;
      if (entry?.source?.source === "directory" && typeof path === "string") out.push(path);
    }
  }
  return unique(out);
}
