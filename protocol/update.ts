import { z } from "zod";
import { Slot } from "./slot.ts";

// spec: How a message is tagged. A SessionUpdate is externally tagged one level inside `update`:
// `{"chat_appended": {"key": ..., "msg": ...}}`; the unit variants cross as the bare name.

type Json = z.infer<ReturnType<typeof z.json>>;
/** A CLI stream-json frame as the CLI wrote it: forwarded untouched, never reshaped. */
export type CliFrame = { [key: string]: Json };

/** The unit variants. spec: "catalog_loaded", "cli_version_changed" and "dictate_availability". */
export const UNIT_UPDATES = [
  "catalog_loaded",
  "cli_version_changed",
  "dictate_availability",
] as const;
export type UnitUpdate = typeof UNIT_UPDATES[number];

/**
 * The keyed variants that home hears as fleet news (catalogue 2.2). `chat_appended` is home news only
 * for a completing `result`, a session-state frame or a background-tasks frame (see `isFleetNews`).
 */
export const FLEET_NEWS: ReadonlySet<string> = new Set([
  "spawning",
  "connected",
  "session_replaced",
  "connection_failed",
  "auth_required",
  "turn_error",
  "turn_cancelled",
  "permission_request",
  "question_request",
  "pending_interaction_resolved",
  "slack_post_pending",
  "slack_draft_resolved",
  "browser_hand_off_pending",
  "browser_hand_off_resolved",
  "settings_write_pending",
  "settings_write_resolved",
  // The document and terminal hand-offs park like the browser's (server/subsystem.ts
  // HELD_KINDS); the original had neither, so their names follow the browser's pattern.
  "document_hand_off_pending",
  "document_hand_off_resolved",
  "terminal_hand_off_pending",
  "terminal_hand_off_resolved",
  "vault_ask_pending",
  "vault_ask_resolved",
  "tasks_changed",
  "releasing",
]);

/** Board news: the variants that move the board subject. spec: What a subject carries > board. */
export const BOARD_NEWS: ReadonlySet<string> = new Set([
  "tasks_changed",
  "cron_schedules_changed",
  "connector_subscriptions_changed",
  "spawning",
  "connected",
  "session_replaced",
  "releasing",
  "connection_failed",
  "worker_status_changed",
]);

/** A decoded update: its variant name and field bag (`key` present on every keyed variant). */
export interface SessionUpdate {
  name: string;
  fields: { key?: Slot; [field: string]: unknown } | null;
}

/** The wire form: `"name"` for a unit variant, else `{name: fields}`. */
export function encodeUpdate(update: SessionUpdate): string | Record<string, unknown> {
  return update.fields === null ? update.name : { [update.name]: update.fields };
}

/** Inverse of `encodeUpdate`, for clients reading the stream. */
export function decodeUpdate(raw: unknown): SessionUpdate {
  if (typeof raw === "string") return { name: raw, fields: null };
  const parsed = z.record(z.string(), z.record(z.string(), z.unknown())).parse(raw);
  const [name] = Object.keys(parsed);
  return { name, fields: parsed[name] };
}

/** The seat an update belongs to, or null for a keyless (app-level) update. */
export function updateSlot(update: SessionUpdate): Slot | null {
  // A plain shape check rather than a schema parse: this runs once for every update emitted.
  const key = update.fields?.key as Partial<Slot> | undefined;
  return key && typeof key.org === "string" && typeof key.project === "string" &&
      typeof key.label === "string"
    ? key as Slot
    : null;
}

/** Whether a keyed update is something a home row draws. spec: What a client receives > update. */
export function isFleetNews(update: SessionUpdate): boolean {
  if (FLEET_NEWS.has(update.name)) return true;
  if (update.name !== "chat_appended") return false;
  const msg = update.fields?.msg as CliFrame | undefined;
  if (!msg) return false;
  if (msg.type === "result") return msg.subtype === "success";
  return msg.type === "system" &&
    (msg.subtype === "session_state_changed" || msg.subtype === "background_tasks_changed");
}

export function isBoardNews(update: SessionUpdate): boolean {
  return BOARD_NEWS.has(update.name);
}

/** The dictate_models subject hears exactly these two. catalogue 2.2. */
export function isDictateModelsNews(update: SessionUpdate): boolean {
  return update.name === "dictate_models_changed" || update.name === "dictate_availability";
}

/** The extensions subject hears the plugins_* family in full. spec: extensions. */
export function isExtensionsNews(update: SessionUpdate): boolean {
  return update.name.startsWith("plugins_");
}
