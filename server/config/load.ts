import { parse, TomlError } from "smol-toml";
import { readWords } from "../state/words.ts";
import type { Wire } from "../../protocol/mod.ts";
import { fingerprint } from "./fingerprint.ts";
import { locate } from "./locate.ts";
import { sectionRules } from "./rules.ts";
import type { AreaSpec, KeySpec } from "./spec.ts";
import type { AccountConfig, ForgeConfig, OrgConfig, ProjectConfig } from "./types.ts";
import { dotted, isPlainObject, schemaTree, validateTree } from "./validate.ts";
import { expandHome } from "../home_path.ts";

/** A successful load: the typed view plus what the settings document and the writer need. */
export interface LoadedConfig {
  /** Where the file is (or would be): the document's `source`. */
  path: string;
  /** Whether a file was read; false means the built-in defaults. */
  exists: boolean;
  text: string;
  fingerprint: string;
  /** The parsed tree as written (no defaults), for the document's concrete paths. */
  tree: Record<string, unknown>;
  config: ForgeConfig;
}

/** A load failure: the loader's own sentence, with file, line, column and key where it has them. */
export class ConfigError extends Error {
  constructor(message: string, readonly key: string | null = null) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Finds the config file: `--config PATH`, else `$FORGE_CONFIG`, else
 * `$CLAUDE_CONFIG_DIR/forge/forge.toml`, else `~/.claude/forge/forge.toml`.
 */
export function configPath(flag: string | null, env: (name: string) => string | undefined): string {
  if (flag) return flag;
  const fromEnv = env("FORGE_CONFIG");
  if (fromEnv) return fromEnv;
  const claudeDir = env("CLAUDE_CONFIG_DIR");
  if (claudeDir) return `${claudeDir}/forge/forge.toml`;
  return `${env("HOME") ?? "."}/.claude/forge/forge.toml`;
}

/** Reads and loads the file at `path`; a missing file loads the built-in defaults. */
export async function loadConfigFile(path: string, areas: AreaSpec[]): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return { ...loadConfigText("", path, areas), exists: false };
    }
    throw new ConfigError(`forge.toml at ${path} could not be read: ${readWords(err)}`);
  }
  return loadConfigText(text, path, areas);
}

/**
 * The boot loader, also the writer's validator: parses, refuses unknown keys and wrong types with
 * line, column and key, checks cross-key rules, and builds the typed view.
 */
export function loadConfigText(text: string, path: string, areas: AreaSpec[]): LoadedConfig {
  let tree: Record<string, unknown>;
  try {
    tree = parse(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      throw new ConfigError(
        `forge.toml at ${path} failed to parse at line ${err.line}, column ${err.column}: ${
          parseWords(text, err)
        }`,
      );
    }
    throw err;
  }
  const violations = validateTree(tree, schemaTree(areas));
  for (const rule of crossRules(tree)) violations.push(rule);
  for (const rule of sectionRules(tree)) violations.push(rule);
  if (violations.length > 0) {
    const first = violations[0];
    const at = locate(text, first.path);
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : "";
    // A key at the top level is in no table: the message alone names it.
    const table = dotted(first.in ?? first.path);
    const within = table === "" ? "" : ` in \`${table}\``;
    const where = `line ${at.line}, column ${at.column}${within}`;
    throw new ConfigError(
      `forge.toml at ${path} is invalid at ${where}: ${first.message}${more}`,
      dotted(first.path),
    );
  }
  return {
    path,
    exists: true,
    text,
    fingerprint: fingerprint(text),
    tree,
    config: view(tree, areas),
  };
}

/**
 * The parser's sentence in forge's words where it has a better one: an unterminated string is
 * reported by smol-toml as "control characters are not allowed in strings" (the newline it ran
 * into), which names neither the string nor the fix.
 */
function parseWords(text: string, err: TomlError): string {
  const first = err.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
  if (!/control characters are not allowed/.test(first)) return first;
  const line = text.split("\n")[err.line - 1] ?? "";
  const at = line.replace(/\r$/, "")[err.column - 1];
  if (at === undefined) {
    return 'a string is not closed before the end of its line (close its quote, or use """ ' +
      "for a string of several lines)";
  }
  const code = at.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  return `a string holds the control character U+${code}; write it as an escape (\\u${code})`;
}

/** Rules spanning keys: unique names, accounts that exist, distinct ports. */
function crossRules(
  tree: Record<string, unknown>,
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const accounts = arr(tree.accounts).map((a) => String(a.display_name));
  // A duplicate is placed on its own line: the second entry's name, not the file's first line.
  dupes(accounts).forEach(([name, i]) =>
    out.push({
      path: ["accounts", i, "display_name"],
      message: `account \`${name}\` is declared twice (display_name is unique)`,
    })
  );
  const projectNames: [string, (string | number)[]][] = [];
  arr(tree.orgs).forEach((org, i) => {
    for (const name of [...strs(org.accounts), ...strs(org.fallback_accounts)]) {
      if (!accounts.includes(name)) {
        out.push({
          path: ["orgs", i, "accounts"],
          message: `names account \`${name}\`, which no [[accounts]] declares`,
        });
      }
    }
    arr(org.projects).forEach((p, j) =>
      projectNames.push([String(p.name), ["orgs", i, "projects", j, "name"]])
    );
  });
  dupes(arr(tree.orgs).map((o) => String(o.name))).forEach(([n, i]) =>
    out.push({ path: ["orgs", i, "name"], message: `org \`${n}\` is declared twice` })
  );
  dupes(projectNames.map(([n]) => n)).forEach(([n, i]) =>
    out.push({
      path: projectNames[i][1],
      message: `project \`${n}\` is declared twice (names are unique across orgs)`,
    })
  );
  const server = isPlainObject(tree.server) ? tree.server : {};
  const gateway = isPlainObject(tree.gateway) ? tree.gateway : {};
  if ((server.port ?? 8790) === (gateway.port ?? 8787)) {
    out.push({ path: ["server", "port"], message: "equals gateway.port" });
  }
  return out;
}

function view(tree: Record<string, unknown>, areas: AreaSpec[]): ForgeConfig {
  const areaValues: Record<string, Record<string, Wire>> = {};
  for (const area of areas) {
    const values: Record<string, Wire> = {};
    for (const spec of area.keys.filter((k) => !k.pattern.includes("[]"))) {
      values[spec.pattern.split(".").slice(1).join(".") || spec.pattern] = valueAt(tree, spec);
    }
    areaValues[area.id] = values;
  }
  const s = areaValues.server;
  const home = Deno.env.get("HOME") ?? "";
  const accounts: AccountConfig[] = arr(tree.accounts).map((a) => ({
    display_name: String(a.display_name),
    provider: String(a.provider),
    token: str(a.token),
    base_url: str(a.base_url),
    config_dir: str(a.config_dir) ? expandHome(String(a.config_dir), home) : null,
    models: strs(a.models),
    env: table(a.env),
  }));
  const orgs: OrgConfig[] = arr(tree.orgs).map((o) => ({
    name: String(o.name),
    accounts: strs(o.accounts),
    fallback_accounts: strs(o.fallback_accounts),
    browser_profile: str(o.browser_profile),
    projects: arr(o.projects).map((p): ProjectConfig => ({
      org: String(o.name),
      name: String(p.name),
      display_path: String(p.path),
      path: expandHome(String(p.path), home),
      auto_start: p.auto_start === true,
      model: str(p.model),
      permission_mode: str(p.permission_mode) ?? "default",
      effort: str(p.effort),
      max_workers: typeof p.max_workers === "number" ? p.max_workers : 2,
      env: table(p.env),
      env_file: str(p.env_file) ? expandHome(String(p.env_file), home) : null,
      document_roots: strs(p.document_roots).map((r) => expandHome(r, home)),
      browser_profile: str(p.browser_profile),
    })),
  }));
  return {
    server: {
      enabled: s.enabled as boolean,
      bind: s.bind as string,
      port: s.port as number,
      allowed_origins: s.allowed_origins as string[],
      first_frame_cap_kb: s.first_frame_cap_kb as number,
      tool_record_cap_kb: s.tool_record_cap_kb as number,
      subsystem_start_secs: s.subsystem_start_secs as number,
      status_url: s.status_url as string,
    },
    client: {
      mark: areaValues.client.mark as string | null,
      theme: areaValues.client.theme as string | null,
      font: areaValues.client.font as string | null,
    },
    documents: { max_size_mib: areaValues.documents.max_size_mib as number },
    claude: {
      path: areaValues.claude.path as string | null,
      check_latest: areaValues.claude.check_latest as boolean,
      npm: areaValues.claude.npm as string,
    },
    env: table(tree.env),
    accounts,
    orgs,
    slack: arr(tree.slack).map((w) => ({
      workspace: String(w.workspace),
      token: String(w.token),
      poll_seconds: typeof w.poll_seconds === "number" ? w.poll_seconds : 5,
      thread_idle_days: typeof w.thread_idle_days === "number" ? w.thread_idle_days : 14,
      api_url: str(w.api_url),
    })),
    areas: areaValues,
  };
}

/** The value a non-repeated key holds: as written, else its default. */
export function valueAt(tree: Record<string, unknown>, spec: KeySpec): Wire {
  let node: unknown = tree;
  for (const part of spec.pattern.split(".")) node = isPlainObject(node) ? node[part] : undefined;
  return node === undefined ? spec.default : (node as Wire);
}

const arr = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter(isPlainObject) : [];
const strs = (v: unknown): string[] => Array.isArray(v) ? v.map(String) : [];
const str = (v: unknown): string | null => typeof v === "string" ? v : null;
const table = (v: unknown): Record<string, string> =>
  isPlainObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : {};
/** Each repeat of a name, with the index of the repeat (the first occurrence is not one). */
const dupes = (names: string[]): [string, number][] =>
  names.flatMap((n, i) => (names.indexOf(n) !== i ? [[n, i] as [string, number]] : []));
