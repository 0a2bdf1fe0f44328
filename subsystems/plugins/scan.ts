import type {
  InstalledPlugin,
  LspRow,
  MarketplaceHealth,
  MarketplaceOffer,
  MarketplaceSource,
  PluginComponents,
  PluginsInventorySnapshot,
} from "../../protocol/mod.ts";
import { isDir, isFile } from "../../server/path_kind.ts";
import { type Loose, obj, readJson, redactUrls, resolvesOnPath, str } from "./files.ts";
import { cloneHead, readPluginDir } from "./plugin_dir.ts";

/** The scan's answer: the snapshot and the PATH checks it cannot carry. spec: extensions. */
export interface Inventory {
  snapshot: PluginsInventorySnapshot;
  lsp: LspRow[];
}

/** A scan that could not read the registry itself: the last inventory stays served. */
export class ScanFailure extends Error {}

interface Market {
  source: MarketplaceSource;
  health: MarketplaceHealth;
  /** The manifest's plugin entries, by name; empty when it did not load. */
  entries: Map<string, Loose>;
  location: string;
  kind: string | null;
}

const byKey = <T>(key: (t: T) => string) => (a: T, b: T) =>
  key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

async function readMarket(name: string, raw: Loose, pluginsDir: string): Promise<Market> {
  const src = obj(raw.source);
  const kind = str(src.source);
  const location = str(raw.installLocation) ?? "";
  const entries = new Map<string, Loose>();
  let loadError: string | null = null;
  const manifestPath = [
    `${location}/.claude-plugin/marketplace.json`,
    `${location}/marketplace.json`,
  ];
  if (location === "" || !await isDir(location)) {
    loadError = location === "" ? "no install location is recorded" : `${location} is missing`;
  } else {
    const found = await isFile(manifestPath[0]) ? manifestPath[0] : manifestPath[1];
    const read = await readJson(found);
    if (!read.ok) loadError = read.missing ? `no marketplace.json under ${location}` : read.why;
    else {
      for (
        const p of Array.isArray(obj(read.value).plugins)
          ? obj(read.value).plugins as unknown[]
          : []
      ) {
        const name = str(obj(p).name);
        if (name) entries.set(name, obj(p));
      }
    }
  }
  // Drift means something only for a cloned source: a directory source IS its own location.
  const drifted = kind !== "directory" && location !== "" &&
    !location.startsWith(`${pluginsDir}/marketplaces/`);
  return {
    source: {
      name,
      source: kind,
      repo: redactOrNull(str(src.repo) ?? str(src.url) ?? str(src.path)),
      install_location: location || null,
    },
    health: {
      name,
      source: kind,
      available: entries.size,
      load_error: loadError,
      install_location: location || null,
      drifted,
    },
    entries,
    location,
    kind,
  };
}

const redactOrNull = (s: string | null) => s === null ? null : redactUrls(s);

/** The plugin's folder inside its marketplace, when the entry names a relative source. */
function folderIn(market: Market | undefined, entry: Loose | null): string | null {
  const source = str(entry?.source);
  if (!market || !source || !source.startsWith("./")) return null;
  return `${market.location}/${source.slice(2)}`;
}

async function enabledIn(path: string, id: string): Promise<boolean | undefined> {
  const read = await readJson(path);
  const v = read.ok ? obj(obj(read.value).enabledPlugins)[id] : undefined;
  return typeof v === "boolean" ? v : undefined;
}

/**
 * Scans the plugins root under `configDir` (CLI 2.1.332's layout) without spawning the CLI: no
 * network, no side effects. Throws `ScanFailure` only when a registry file exists and cannot be
 * read; every other defect is a load_error in the answer. spec: extensions > snapshot, lsp.
 */
export async function scanInventory(configDir: string, pathEnv: string): Promise<Inventory> {
  const pluginsDir = `${configDir}/plugins`;
  const [registry, known, settings] = await Promise.all([
    readJson(`${pluginsDir}/installed_plugins.json`),
    readJson(`${pluginsDir}/known_marketplaces.json`),
    readJson(`${configDir}/settings.json`),
  ]);
  for (const r of [registry, known]) if (!r.ok && !r.missing) throw new ScanFailure(r.why);
  const userEnabled = obj(settings.ok ? obj(settings.value).enabledPlugins : {});
  const markets = new Map<string, Market>();
  await Promise.all(
    Object.entries(obj(known.ok ? known.value : {})).map(async ([name, raw]) => {
      markets.set(name, await readMarket(name, obj(raw), pluginsDir));
    }),
  );
  const marketplace: MarketplaceOffer[] = [];
  for (const [mname, m] of markets) {
    for (const [pname, e] of m.entries) {
      marketplace.push({
        plugin_id: `${pname}@${mname}`,
        name: pname,
        description: str(e.description),
        marketplace_name: mname,
        version: str(e.version),
        source: JSON.parse(JSON.stringify(e.source ?? null)),
      });
    }
  }
  const installed: InstalledPlugin[] = [];
  const components: PluginComponents[] = [];
  const lsp: LspRow[] = [];
  const resolved = new Map<string, boolean>();
  const plugins = Object.entries(obj(obj(registry.ok ? registry.value : {}).plugins));
  await Promise.all(plugins.map(async ([id, rawRows]) => {
    const rows = (Array.isArray(rawRows) ? rawRows : []).map(obj);
    const at = id.lastIndexOf("@");
    const [pname, mname] = at > 0 ? [id.slice(0, at), id.slice(at + 1)] : [id, ""];
    const market = markets.get(mname);
    const entry = market?.entries.get(pname) ?? null;
    const enabled: boolean[] = [];
    for (const row of rows) {
      const project = str(row.projectPath);
      const on = project
        ? (await enabledIn(`${project}/.claude/settings.local.json`, id)) ??
          (await enabledIn(`${project}/.claude/settings.json`, id)) ?? true
        : userEnabled[id] !== false;
      enabled.push(on);
      installed.push({
        id,
        version: str(row.version),
        scope: str(row.scope) ?? "user",
        enabled: on,
        install_path: str(row.installPath),
        project_path: project,
        installed_at: str(row.installedAt),
        last_updated: str(row.lastUpdated),
      });
    }
    // A directory marketplace's plugin is read from its folder, not from the cache copy.
    const folder = folderIn(market, entry);
    const dir = market?.kind === "directory" && folder ? folder : str(rows[0]?.installPath) ?? "";
    const [found, candidate] = await Promise.all([
      readPluginDir(dir, entry),
      availableVersion(market, entry),
    ]);
    const marketError = market?.health.load_error
      ? `marketplace ${mname} failed to load: ${market.health.load_error}`
      : market
      ? null
      : `marketplace ${mname} is not configured`;
    components.push({
      plugin: id,
      marketplace: mname,
      version: str(rows[0]?.version),
      installed: true,
      enabled: enabled.length > 0 && enabled.every(Boolean),
      auto: rows.some((r) => r.auto === true),
      available_version: candidate,
      skills: found.skills,
      agents: found.agents,
      commands: found.commands,
      hooks: found.hooks,
      mcp: found.mcp,
      lsp_servers: [...found.lsp.keys()].sort(),
      load_error: [found.load_error, marketError].filter(Boolean).join("; ") || null,
    });
    for (const [server, command] of found.lsp) {
      if (!resolved.has(command)) resolved.set(command, resolvesOnPath(command, pathEnv));
      lsp.push({ plugin: id, server, command, on_path: resolved.get(command)! });
    }
  }));
  const health = [...markets.values()].map((m) => m.health);
  return {
    snapshot: {
      installed: installed.sort(byKey((r) => `${r.id}\0${r.scope}\0${r.project_path ?? ""}`)),
      marketplace: marketplace.sort(byKey((o) => `${o.marketplace_name}\0${o.name}`)),
      marketplaces: [...markets.values()].map((m) => m.source).sort(byKey((s) => s.name)),
      components: components.sort(byKey((c) => c.plugin)),
      marketplace_health: health.sort(byKey((h) => h.name)),
      token_costs: {}, // spec: empty until a producer fetches it; nothing here measures it.
    },
    lsp: lsp.sort(byKey((r) => `${r.plugin}\0${r.server}`)),
  };
}

/**
 * The version an update would install now (what CLI 2.1.332's `update` compares): the marketplace
 * copy's `plugin.json` version, else the entry's `version`, else the clone's HEAD cut to 12 digits.
 */
async function availableVersion(
  market: Market | undefined,
  entry: Loose | null,
): Promise<string | null> {
  if (!market || !entry) return null;
  const folder = folderIn(market, entry);
  if (folder) {
    const pj = await readJson(`${folder}/.claude-plugin/plugin.json`);
    const v = pj.ok ? str(obj(pj.value).version) : null;
    if (v) return v;
  }
  const declared = str(entry.version);
  if (declared) return declared;
  const head = await cloneHead(market.location);
  return head ? head.slice(0, 12) : null;
}
