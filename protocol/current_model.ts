import type { AvailableModel, CurrentModel } from "./session.ts";

/**
 * The original's `CurrentModel` for `resolved` (the id the CLI runs, or the alias forge asked
 * for): `requested_id` is what forge launched with, `catalog_id` the catalogue row it matches
 * (by id or by the id that row resolves to), the display names and capabilities that row's.
 * A client naming the model a frame reports (an init frame's bare id) uses this too, so it
 * names the row the header names. `is_authoritative` says the CLI itself named the model (its init frame or its catalogue's
 * default), rather than forge repeating what it asked for. null when nothing names a model.
 */
export function currentModel(
  resolved: string | null,
  requested: string | null,
  rows: AvailableModel[],
  authoritative: boolean,
): CurrentModel | null {
  if (resolved === null) return null;
  const row = rows.find((r) => r.id === resolved) ??
    rows.find((r) => r.resolved_model === resolved && r.id !== "default") ??
    rows.find((r) => r.resolved_model === resolved) ?? null;
  const long = row?.display_name ?? resolved;
  return {
    requested_id: requested,
    resolved_id: resolved,
    display_name_short: long.replace(/\s*\(.*\)\s*$/, ""),
    display_name_long: long,
    catalog_id: row?.id ?? null,
    supports_effort: row?.supports_effort === true,
    supported_effort_levels: row?.supported_effort_levels ?? [],
    supports_fast_mode: row?.supports_fast_mode ?? null,
    supports_auto_mode: row?.supports_auto_mode ?? null,
    supports_adaptive_thinking: row?.supports_adaptive_thinking ?? null,
    is_authoritative: authoritative,
  };
}
