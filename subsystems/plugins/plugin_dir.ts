import { isDir, isFile } from "../../server/path_kind.ts";
import { entries, type Loose, obj, readJson, str } from "./files.ts";

/** What one plugin directory brings (CLI 2.1.332 layout: `.claude-plugin/plugin.json`, ...). */
export interface DirComponents {
  skills: string[];
  agents: string[];
  commands: string[];
  hooks: string[];
  mcp: boolean;
  /** Declared LSP servers: name -> the command its manifest names. */
  lsp: Map<string, string>;
  /** `plugin.json`'s version, when it declares one. */
  version: string | null;
  load_error: string | null;
}

/** Adds `{"<server>": {"command": ...}}` declarations to `into` (a later one wins a name). */
export function addLspServers(into: Map<string, string>, declared: unknown): void {
  for (const [server, spec] of Object.entries(obj(declared))) {
    into.set(server, str(obj(spec).command) ?? server);
  }
}

async function mdNames(dir: string): Promise<string[]> {
  return (await entries(dir)).filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => e.name.slice(0, -3)).sort();
}

async function skillNames(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await entries(dir)) {
    if (e.isDirectory && await isFile(`${dir}/${e.name}/SKILL.md`)) out.push(e.name);
  }
  return out.sort();
}

/**
 * Reads one plugin directory. LSP servers may be declared in three places and the CLI honours all
 * of them: the marketplace entry's `lspServers` (passed in), `plugin.json`'s, and `.lsp.json`.
 * A missing directory or a broken manifest is the row's `load_error`, never an exception.
 */
export async function readPluginDir(dir: string, entry: Loose | null): Promise<DirComponents> {
  const lsp = new Map<string, string>();
  addLspServers(lsp, entry?.lspServers);
  const empty: DirComponents = {
    skills: [],
    agents: [],
    commands: [],
    hooks: [],
    mcp: false,
    lsp,
    version: null,
    load_error: null,
  };
  if (!await isDir(dir)) return { ...empty, load_error: `its install directory ${dir} is missing` };
  const [manifest, hooks, lspFile, skills, agents, commands, mcpFile] = await Promise.all([
    readJson(`${dir}/.claude-plugin/plugin.json`),
    readJson(`${dir}/hooks/hooks.json`),
    readJson(`${dir}/.lsp.json`),
    skillNames(`${dir}/skills`),
    mdNames(`${dir}/agents`),
    mdNames(`${dir}/commands`),
    isFile(`${dir}/.mcp.json`),
  ]);
  const errors: string[] = [];
  const pj = manifest.ok ? obj(manifest.value) : {};
  if (!manifest.ok && !manifest.missing) errors.push(manifest.why);
  if (!hooks.ok && !hooks.missing) errors.push(hooks.why);
  if (!lspFile.ok && !lspFile.missing) errors.push(lspFile.why);
  addLspServers(lsp, pj.lspServers);
  if (lspFile.ok) addLspServers(lsp, lspFile.value);
  return {
    skills,
    agents,
    commands,
    hooks: hooks.ok ? Object.keys(obj(obj(hooks.value).hooks)).sort() : [],
    mcp: mcpFile || Object.keys(obj(pj.mcpServers)).length > 0,
    lsp,
    version: str(pj.version),
    load_error: errors.length > 0 ? errors.join("; ") : null,
  };
}

/**
 * The commit a git clone's HEAD names, read from `.git` without spawning git (a shallow clone's
 * HEAD is a loose ref or in packed-refs). Null for a directory that is not a clone.
 */
export async function cloneHead(location: string): Promise<string | null> {
  let head: string;
  try {
    head = (await Deno.readTextFile(`${location}/.git/HEAD`)).trim();
  } catch {
    return null; // no clone here: no head to show
  }
  if (!head.startsWith("ref: ")) return /^[0-9a-f]{40}$/.test(head) ? head : null;
  const ref = head.slice(5);
  try {
    return (await Deno.readTextFile(`${location}/.git/${ref}`)).trim();
  } catch {
    // A packed ref has no loose file: packed-refs holds it.
    try {
      const packed = await Deno.readTextFile(`${location}/.git/packed-refs`);
      const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
      return line ? line.split(" ")[0] : null;
    } catch {
      return null; // no packed-refs either: the head names a ref that is not there
    }
  }
}
