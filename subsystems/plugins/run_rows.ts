import type { InstalledPlugin, PluginUpdateRunRow } from "../../protocol/mod.ts";
import type { CliOutcome } from "./cli.ts";
import type { Inventory } from "./scan.ts";

/** The marketplace part of `<plugin>@<marketplace>`, empty when it names none. */
export function marketplaceOf(id: string): string {
  const at = id.lastIndexOf("@");
  return at > 0 ? id.slice(at + 1) : "";
}

/** One queued row per registry row, with what the scan says the marketplace offers now. */
export function queuedRows(
  rows: InstalledPlugin[],
  inv: Inventory,
  cwd: string,
): PluginUpdateRunRow[] {
  return rows.map((r) => ({
    plugin_id: r.id,
    scope: r.scope,
    cwd_raw: cwd,
    marketplace: marketplaceOf(r.id),
    status: "queued",
    installed_version: r.version,
    available_version: inv.snapshot.components.find((c) => c.plugin === r.id)?.available_version ??
      null,
    detail: null,
  }));
}

/**
 * A row after its `claude plugin update`: the CLI's `updateOutcome` decides (`updated`,
 * `up_to_date`); an ok answer without one is judged by the versions it names; a failure carries
 * the CLI's own words (`claude plugin update --json`, as CLI 2.1.332 answers it).
 */
export function rowAfterUpdate(
  row: PluginUpdateRunRow,
  out: CliOutcome,
): Partial<PluginUpdateRunRow> {
  if (!out.ok) return { status: "failed", detail: out.message };
  const moved = out.updateOutcome === "updated" ||
    (out.updateOutcome === null && out.oldVersion !== out.newVersion);
  return {
    status: moved ? "updated" : "already_current",
    installed_version: out.oldVersion ?? row.installed_version,
    available_version: out.newVersion ?? row.available_version,
    detail: null,
  };
}

/**
 * A check's verdict per row after the marketplaces were refreshed and the disk rescanned: a
 * candidate version that differs from the installed one is `update_available`; a marketplace
 * whose refresh failed fails its rows with the CLI's words; a plugin no marketplace offers now
 * is `skipped` with the reason.
 */
export function checkRows(
  rows: PluginUpdateRunRow[],
  after: Inventory,
  refreshFailed: Map<string, string>,
): PluginUpdateRunRow[] {
  return rows.map((row) => {
    const failed = refreshFailed.get(row.marketplace);
    if (failed !== undefined) return { ...row, status: "failed", detail: failed };
    const offered = after.snapshot.components.find((c) => c.plugin === row.plugin_id)
      ?.available_version ?? null;
    if (offered === null) {
      return {
        ...row,
        status: "skipped",
        available_version: null,
        detail: `marketplace ${row.marketplace || "(none)"} does not offer ${row.plugin_id} now`,
      };
    }
    return {
      ...row,
      status: offered === row.installed_version ? "already_current" : "update_available",
      available_version: offered,
      detail: null,
    };
  });
}
