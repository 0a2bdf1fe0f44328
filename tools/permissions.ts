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
  ]);
  const write = unique([configDir, ...claudeDirs, "/tmp"]);
  // Deno refuses /proc reads without --allow-all, so process walks and session kills go through
  // `ps` and `kill` instead.
  const run = unique(["git", "ps", "kill", ...(opts.claudeBin ? [opts.claudeBin] : ["claude"])]);
  const flags = [
    `--allow-net=${
      unique([`${hostForFlag(config.server.bind)}:${opts.port}`, ...connectorHosts(config)])
        .join(",")
    }`,
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

/**
 * The connectors' servers (issue 21): the `[gotify]` URL and each `[[slack]]` workspace's Web API
 * (Slack's own unless `api_url` names another), as `host:port` - nothing else on the network.
 */
export function connectorHosts(config: ForgeConfig): string[] {
  const urls = [
    config.areas.gotify?.url,
    ...(config.slack ?? []).map((w) => w.api_url ?? "https://slack.com/api/"),
  ];
  return urls.flatMap((u) => {
    if (typeof u !== "string") return [];
    try {
      const url = new URL(u);
      const port = url.port ||
        (url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80");
      return [`${url.hostname}:${port}`];
    } catch {
      return [];
    }
  });
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
