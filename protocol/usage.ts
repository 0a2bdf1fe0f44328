/**
 * The `usage` subject's snapshot schema (zod), apart from the report that builds it
 * (subsystems/usage/report.ts imports its types alone, so the scan's path loads no zod and a
 * first scan's process starts light); validating clients check snapshots against it. spec:
 * Subjects > usage.
 */
import { z } from "zod";

const Row = z.object({
  /** The model id, the project name, the cwd, or "total". */
  name: z.string(),
  /** API messages counted (each once, however many lines repeat it). */
  messages: z.number().int().nonnegative(),
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  cache_creation_tokens: z.number().nonnegative(),
  cache_read_tokens: z.number().nonnegative(),
  /** Notional USD at list price; excludes every token of `unpriced_models`. */
  cost_usd: z.number().nonnegative(),
  /** Models in this row with no price (fast mode shows as "<model> (fast)"): their tokens
   * are counted but not costed, so cost_usd is a floor whenever this is non-empty. */
  unpriced_models: z.array(z.string()),
});

const ProjectRow = Row.extend({
  /** The forge project's path, or the session's cwd; null when the transcript named none
   * and only the CLI's directory slug is known (then name is the slug). */
  path: z.string().nullable(),
  /** Whether name is a forge project's (its path holds the session's cwd). */
  forge_project: z.boolean(),
});

const Window = z.object({
  /** The window's first instant (ISO, UTC) or null for lifetime. */
  since: z.string().nullable(),
  by_model: z.array(Row),
  by_project: z.array(ProjectRow),
  /** Rows by the forge account that answered each message (the gateway's request ledger);
   * `unattributed` holds the messages no ledger line names (sent around the gateway, or before
   * it kept one). */
  by_account: z.array(Row),
  total: Row,
});

/** The `usage` subject's snapshot, snake_case as it crosses the wire. */
export const UsageSnapshotSchema = z.object({
  today: Window,
  week: Window,
  month: Window,
  lifetime: Window,
  /** false only when no price table loaded: every cost_usd is then a placeholder zero. */
  pricing_available: z.boolean(),
  /** Where the table came from, or null with pricing_available false. */
  prices: z.object({ source: z.string(), as_of: z.string() }).nullable(),
  scanned_at: z.string(),
  week_starts_on: z.literal("monday"),
});
export type UsageSnapshot = z.infer<typeof UsageSnapshotSchema>;
export type UsageRow = z.infer<typeof Row>;
export type UsageProjectRow = z.infer<typeof ProjectRow>;
export type UsageWindow = z.infer<typeof Window>;
