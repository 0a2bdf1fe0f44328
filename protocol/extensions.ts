import { z } from "zod";

// spec: What a subject carries > extensions, and "The read and the frames are one shape": the
// subject's read and the plugins_* updates embed these same objects. Where the spec names a
// field without fixing its shape, the shape is the original's (its plugins_* updates and its
// plugins wire types): snake_case, optional values as null rather than absent.

const str = z.string();
const opt = z.string().nullable();

/** One registry entry of `installed_plugins.json`: a plugin installed at one scope. */
export const InstalledPlugin = z.object({
  id: str,
  version: opt,
  scope: str,
  enabled: z.boolean(),
  install_path: opt,
  project_path: opt,
  installed_at: opt,
  last_updated: opt,
}).strict();
export type InstalledPlugin = z.infer<typeof InstalledPlugin>;

/** One plugin a marketplace's catalogue offers (the original's MarketplaceEntry). */
export const MarketplaceOffer = z.object({
  plugin_id: str,
  name: str,
  description: opt,
  marketplace_name: str,
  version: opt,
  /** The catalogue entry's `source` as the marketplace declares it (a path or a source object). */
  source: z.json().describe("the entry's source as the marketplace's own manifest declares it"),
}).strict();
export type MarketplaceOffer = z.infer<typeof MarketplaceOffer>;

/** A configured marketplace: its name, source kind, repo (url, owner/repo or path), clone location. */
export const MarketplaceSource = z.object({
  name: str,
  source: opt,
  repo: opt,
  install_location: opt,
}).strict();
export type MarketplaceSource = z.infer<typeof MarketplaceSource>;

/** What one plugin brings, read off disk. `lsp_servers` are names; the `lsp` rows carry commands. */
export const PluginComponents = z.object({
  plugin: str,
  marketplace: str,
  version: opt,
  installed: z.boolean(),
  enabled: z.boolean(),
  /** The registry marks the install as an auto-installed dependency. */
  auto: z.boolean(),
  /** The version an update would install now (plugin.json, else the entry, else the clone HEAD). */
  available_version: opt,
  skills: z.array(str),
  agents: z.array(str),
  commands: z.array(str),
  /** Hook trigger events (`SessionStart`, ...), from hooks/hooks.json. */
  hooks: z.array(str),
  mcp: z.boolean(),
  lsp_servers: z.array(str),
  /** Why the plugin's files could not be read, in forge's words; null when they were. */
  load_error: opt,
}).strict();
export type PluginComponents = z.infer<typeof PluginComponents>;

/** One marketplace's health: how many plugins its manifest lists, why it failed, and drift. */
export const MarketplaceHealth = z.object({
  name: str,
  source: opt,
  available: z.number().int(),
  load_error: opt,
  install_location: opt,
  /** A cloned source whose registry location sits outside the plugins root's marketplaces/. */
  drifted: z.boolean(),
}).strict();
export type MarketplaceHealth = z.infer<typeof MarketplaceHealth>;

/** The disk scan. spec: extensions > snapshot. */
export const PluginsInventorySnapshot = z.object({
  installed: z.array(InstalledPlugin),
  marketplace: z.array(MarketplaceOffer),
  marketplaces: z.array(MarketplaceSource),
  components: z.array(PluginComponents),
  marketplace_health: z.array(MarketplaceHealth),
  /** Always-on tokens per `<plugin>@<version>`: empty until a producer measures it (none does). */
  token_costs: z.record(str, z.number()),
}).strict();
export type PluginsInventorySnapshot = z.infer<typeof PluginsInventorySnapshot>;

/** One declared LSP server of an installed plugin and whether its command resolves on PATH. */
export const LspRow = z.object({
  plugin: str,
  server: str,
  command: str,
  on_path: z.boolean(),
}).strict();
export type LspRow = z.infer<typeof LspRow>;

export const PluginUpdateTrigger = z.enum(["manual", "auto"]);
export type PluginUpdateTrigger = z.infer<typeof PluginUpdateTrigger>;

export const PluginRunRowStatus = z.enum([
  "queued",
  "updating",
  "updated",
  "already_current",
  "failed",
  "skipped",
  "update_available",
]);
export type PluginRunRowStatus = z.infer<typeof PluginRunRowStatus>;

/**
 * One plugin's row in a run. The versions either side: `installed_version` is what was installed
 * when the row was queued, `available_version` what the marketplace offers (for `updated`, what
 * the CLI moved it to). `detail` is the CLI's own words for `failed`, the reason for `skipped`.
 */
export const PluginUpdateRunRow = z.object({
  plugin_id: str,
  scope: str,
  cwd_raw: str,
  marketplace: str,
  status: PluginRunRowStatus,
  installed_version: opt,
  available_version: opt,
  detail: opt,
}).strict();
export type PluginUpdateRunRow = z.infer<typeof PluginUpdateRunRow>;

/** The last update run or check: trigger, finished, rows. Progress replaces the whole run. */
export const PluginUpdateRun = z.object({
  trigger: PluginUpdateTrigger,
  finished: z.boolean(),
  rows: z.array(PluginUpdateRunRow),
}).strict();
export type PluginUpdateRun = z.infer<typeof PluginUpdateRun>;

/** The extensions subject's read. spec: What a subject carries > extensions. */
export const ExtensionsRead = z.object({
  snapshot: PluginsInventorySnapshot.nullable(),
  lsp: z.array(LspRow),
  update_run: PluginUpdateRun.nullable(),
}).strict();
export type ExtensionsRead = z.infer<typeof ExtensionsRead>;

/** `cwd_raw`, as the original's updates carry it: the directory the CLI ran in (its config dir). */
const cwd = { cwd_raw: str };

/**
 * The field bags of the plugins_* updates this server emits (all keyless). `lsp` on
 * plugins_inventory_updated is ours (the original's carried the snapshot alone): the PATH checks
 * move with the installed set, and the read carries them beside the snapshot.
 */
export const PLUGINS_UPDATES = {
  plugins_inventory_updated: z.object({
    ...cwd,
    snapshot: PluginsInventorySnapshot,
    lsp: z.array(LspRow),
    claude_path: str,
  }).strict(),
  plugins_inventory_refresh_failed: z.object({ ...cwd, message: str, trigger: PluginUpdateTrigger })
    .strict(),
  plugins_cli_action_succeeded: z.object({
    ...cwd,
    result: z.object({ snapshot: PluginsInventorySnapshot, message: str, claude_path: str })
      .strict(),
  }).strict(),
  plugins_cli_action_failed: z.object({ ...cwd, message: str }).strict(),
  plugins_update_run_progress: z.object({ ...cwd, run: PluginUpdateRun }).strict(),
  plugins_update_run_finished: z.object({
    ...cwd,
    run: PluginUpdateRun,
    snapshot: PluginsInventorySnapshot.nullable(),
    claude_path: opt,
  }).strict(),
} as const;
export type PluginsUpdateName = keyof typeof PLUGINS_UPDATES;

/**
 * What this file adds beyond v29, as `update.field` with why (protocol/beyond.ts lists it beside
 * the rest). spec: What a subject carries > extensions: plugins_inventory_updated embeds the
 * snapshot, and `lsp` is the read's own field beside it.
 */
export const PLUGINS_EXTENSIONS = {
  fields: {
    "plugins_inventory_updated.lsp":
      "the PATH checks move with the installed set, so the update carries them beside the " +
      "snapshot as the read does; v29's update carries the snapshot alone",
  },
} as const;

const BY_ACCOUNT =
  "rows by the forge account that answered each message (the gateway's request ledger), " +
  "beside v29's by_model and by_project, so a person sees which subscription paid";

const MODEL_ORIGIN =
  "where the row's model comes from (a package that ships it, or a local file an install " +
  "copies in), so a page offers an install only where there is a file to copy";
const MODEL_CHECK = "the file's declared size and digest, which an install checks the copy against";
const NUMBER_SOURCE =
  "where the number came from (the feed, or a local bench run's tier and corpus), so numbers " +
  "of two sources are never compared; v29's speed is the feed's m4-max row alone";

const PROPOSAL_AXES =
  "the numbers the candidate rule compared and where they came from (the feed, or a local " +
  "bench run's corpus), so a page shows why a row won or lost; v29's proposal carries the " +
  "feed's speed_x and fleurs_en_wer alone";

/**
 * The fields forge adds to v29's subject snapshots, as `subject.path` (`[]` steps into a list)
 * with why; protocol/beyond.ts lists them beside the rest and docs/protocol.md marks each.
 * spec: What a subject carries (the usage and session tables name v29's own).
 */
export const SUBJECT_FIELD_EXTENSIONS = {
  "usage.today.by_account": BY_ACCOUNT,
  "usage.week.by_account": BY_ACCOUNT,
  "usage.month.by_account": BY_ACCOUNT,
  "usage.lifetime.by_account": BY_ACCOUNT,
  "usage.prices":
    "where the price table came from and as of when, so a cost can be said with its date; " +
    "v29 says only whether one loaded (pricing_available)",
  "usage.scanned_at": "when the pool scan behind the report ran: the subject is not a feed",
  "usage.week_starts_on": "the day the week window begins (monday), so a client labels it rightly",
  "home.connectors.gotify.configured":
    "whether forge.toml has a [gotify] at all: a missing one and a down server both read as " +
    "not connected, and this says which",
  "home.connectors.gotify.error": "why Gotify is not connected, in forge's words",
  "home.connectors.slack.load_error": "why the stored subscription set failed to load",
  "session.account": "the gateway account the seat runs under (protocol/accounts.ts)",
  "session.state.slot": "the seat the state belongs to, so the object reads alone",
  "session.processes.pid": "the root process the walk began at (the CLI's own pid)",
  "dictate_models.updates[].current.wer": PROPOSAL_AXES,
  "dictate_models.updates[].current.source": PROPOSAL_AXES,
  "dictate_models.updates[].current.corpus": PROPOSAL_AXES,
  "dictate_models.updates[].candidates[].file":
    "the row's model file, which dictate_activate names",
  "dictate_models.updates[].candidates[].wer": PROPOSAL_AXES,
  "dictate_models.updates[].candidates[].speed_x": PROPOSAL_AXES,
  "dictate_models.rows[].engine":
    "the runtime the row's model loads in, which the bench and a role swap start it with",
  "dictate_models.rows[].source": MODEL_ORIGIN,
  "dictate_models.rows[].package": MODEL_ORIGIN,
  "dictate_models.rows[].file": "the model file the row installs, which dictate_activate names",
  "dictate_models.rows[].size_bytes": MODEL_CHECK,
  "dictate_models.rows[].digest": MODEL_CHECK,
  "dictate_models.rows[].installed": "whether this machine holds the file: install or activate",
  "dictate_models.rows[].speed.source": NUMBER_SOURCE,
  "dictate_models.rows[].speed.tier": NUMBER_SOURCE,
  "dictate_models.rows[].speed.corpus": NUMBER_SOURCE,
  "dictate_models.installed[].sha256": "the digest the installed copy was checked against",
  "dictate_models.bench.reason":
    "why the last bench run ended without a result (a model that would not load), until the " +
    "next run; v29's bench is the run in flight alone",
} as const;
