import { type CatalogRow, wireTime } from "../../protocol/mod.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { defaultClaudeDir, projectSlug } from "../workspace/claude/paths.ts";
import { stamp } from "../workspace/stamps.ts";

/** The most rows one project's catalog carries: the newest, so a long-lived project stays cheap. */
export const CATALOG_CAP = 50;

/** One transcript of a project's catalog: its session, where it is, when it was last written. */
export interface TranscriptRow {
  session_id: string;
  path: string;
  mtime: number;
  size: number;
}
type Row = TranscriptRow;

/** How long one folder's listing is reused while the folder itself is unchanged: a home read
 * follows every fleet update, and a project with thousands of transcripts costs tens of
 * milliseconds to stat (tools/bench/home_catalog.ts). A new transcript changes the folder's
 * mtime and is listed at once; an older one's last_activity is at most this stale. */
export const CATALOG_TTL_MS = 5_000;
/** The same for a project no seat is working in: its transcripts are not being written, and a
 * home of hundreds of projects would otherwise stat every one of them on every read. */
export const QUIET_CATALOG_TTL_MS = 30_000;
const cache = new Map<string, { at: number; dirMtime: number; rows: Promise<Row[]> }>();
/** Each project path's real path, reused for QUIET_CATALOG_TTL_MS. */
const realPaths = new Map<string, { at: number; path: Promise<string> }>();

/** Forgets every reused listing (the bench's fresh arm). */
export function clearCatalogCache(): void {
  cache.clear();
  realPaths.clear();
}

/** One folder's transcripts, stat'ed in parallel; reused for `ttl` as CATALOG_TTL_MS says. */
async function folderRows(folder: string, ttl: number): Promise<Row[]> {
  // A folder that cannot be stat'ed holds no transcripts forge could read.
  const dir = await stamp(folder);
  if (!dir) return []; // No folder: nothing has run here under this config directory.
  const dirMtime = dir.mtime;
  const held = cache.get(folder);
  if (held && held.dirMtime === dirMtime && Date.now() - held.at < ttl) {
    return held.rows;
  }
  const rows = (async () => {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(folder)) {
        if (entry.isFile && entry.name.endsWith(".jsonl")) names.push(entry.name);
      }
    } catch {
      return []; // No folder: nothing has run here under this config directory.
    }
    const stats = await Promise.all(
      // A transcript that went between the listing and its stat is simply not a row.
      names.map((n) => Deno.stat(`${folder}/${n}`).catch(() => null)),
    );
    return names.flatMap((n, i) =>
      stats[i]
        ? [{
          session_id: n.slice(0, -6),
          path: `${folder}/${n}`,
          mtime: stats[i]!.mtime?.getTime() ?? 0,
          size: stats[i]!.size,
        }]
        : []
    );
  })();
  cache.set(folder, { at: Date.now(), dirMtime, rows });
  if (cache.size > 4096) cache.delete(cache.keys().next().value!);
  return rows;
}

/**
 * A project's transcript catalog (home > projects > project.sessions): one row per
 * session transcript the CLI wrote for the project's directory, newest first, under every config
 * directory a seat of this project can run with (each of its org's accounts' `config_dir`, else
 * the inherited `$CLAUDE_CONFIG_DIR`, else `~/.claude`). A row is `{session_id, last_activity,
 * cwd}`; `last_activity` is the transcript's mtime as serde's SystemTime, which is what tells a
 * project nothing ever ran in from one whose session has gone. `cap`: the newest rows carried;
 * `live`: a seat works in the project, so its listing is reused for CATALOG_TTL_MS at most.
 */
export async function projectCatalog(
  config: ForgeConfig,
  p: ProjectConfig,
  opts: { cap?: number; live?: boolean } = {},
): Promise<CatalogRow[]> {
  const { rows, cwd } = await projectTranscripts(config, p, opts);
  return rows.map((r) => ({ session_id: r.session_id, last_activity: wireTime(r.mtime), cwd }));
}

/** The transcripts behind `projectCatalog`'s rows, newest first, and the cwd they were filed
 * under (list_sessions reads them: session_list.ts). */
export async function projectTranscripts(
  config: ForgeConfig,
  p: ProjectConfig,
  opts: { cap?: number; live?: boolean } = {},
): Promise<{ rows: TranscriptRow[]; cwd: string }> {
  const cap = opts.cap ?? CATALOG_CAP;
  const ttl = opts.live === false ? QUIET_CATALOG_TTL_MS : CATALOG_TTL_MS;
  const fallback = defaultClaudeDir({
    CLAUDE_CONFIG_DIR: Deno.env.get("CLAUDE_CONFIG_DIR"),
    HOME: Deno.env.get("HOME"),
  });
  const org = config.orgs.find((o) => o.name === p.org);
  const dirs = new Set<string>();
  for (const name of [...(org?.accounts ?? []), ...(org?.fallback_accounts ?? [])]) {
    const account = config.accounts.find((a) => a.display_name === name);
    dirs.add(account?.config_dir ?? fallback);
  }
  if (dirs.size === 0) dirs.add(fallback);
  const cwd = await realPath(p.path);
  const rows: Row[] = [];
  for (const dir of dirs) {
    rows.push(...await folderRows(`${dir}/projects/${projectSlug(cwd)}`, ttl));
  }
  rows.sort((a, b) => b.mtime - a.mtime);
  return { rows: rows.slice(0, cap), cwd };
}

/** `path` resolved, reused for QUIET_CATALOG_TTL_MS (a project's directory seldom moves). */
function realPath(path: string): Promise<string> {
  const held = realPaths.get(path);
  if (held && Date.now() - held.at < QUIET_CATALOG_TTL_MS) return held.path;
  // The CLI names its folder by the real path; a path that will not resolve is named as given.
  const resolved = Deno.realPath(path).catch(() => path);
  realPaths.set(path, { at: Date.now(), path: resolved });
  if (realPaths.size > 4096) realPaths.delete(realPaths.keys().next().value!);
  return resolved;
}
