import type { Wire } from "../../protocol/mod.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { projectSlug } from "../workspace/claude/paths.ts";

/** The most rows one project's catalog carries: the newest, so a long-lived project stays cheap. */
export const CATALOG_CAP = 50;

/**
 * A project's transcript catalog (home > projects > project.sessions, issue 13 §2): one row per
 * session transcript the CLI wrote for the project's directory, newest first, under every config
 * directory a seat of this project can run with (each of its org's accounts' `config_dir`, else
 * the inherited `$CLAUDE_CONFIG_DIR`, else `~/.claude`). A row is `{session_id, last_activity,
 * cwd}`; `last_activity` is the transcript's mtime as serde's SystemTime, which is what tells a
 * project nothing ever ran in from one whose session has gone.
 */
export async function projectCatalog(config: ForgeConfig, p: ProjectConfig): Promise<Wire[]> {
  const home = Deno.env.get("HOME") ?? "";
  const fallback = Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${home}/.claude`;
  const org = config.orgs.find((o) => o.name === p.org);
  const dirs = new Set<string>();
  for (const name of [...(org?.accounts ?? []), ...(org?.fallback_accounts ?? [])]) {
    const account = config.accounts.find((a) => a.display_name === name);
    dirs.add(account?.config_dir ?? fallback);
  }
  if (dirs.size === 0) dirs.add(fallback);
  const cwd = await Deno.realPath(p.path).catch(() => p.path);
  const rows: { session_id: string; mtime: number }[] = [];
  for (const dir of dirs) {
    const folder = `${dir}/projects/${projectSlug(cwd)}`;
    try {
      for await (const entry of Deno.readDir(folder)) {
        if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
        const stat = await Deno.stat(`${folder}/${entry.name}`).catch(() => null);
        if (!stat) continue;
        rows.push({ session_id: entry.name.slice(0, -6), mtime: stat.mtime?.getTime() ?? 0 });
      }
    } catch {
      // No folder: nothing has run here under this config directory.
    }
  }
  rows.sort((a, b) => b.mtime - a.mtime);
  return rows.slice(0, CATALOG_CAP).map((r) => ({
    session_id: r.session_id,
    last_activity: {
      secs_since_epoch: Math.floor(r.mtime / 1000),
      nanos_since_epoch: (r.mtime % 1000) * 1_000_000,
    },
    cwd,
  }));
}
