import type { Slot } from "./slot.ts";
import type { Subject } from "./subject.ts";

// spec: What a client receives. Every server message is tagged on `kind`. Field bags that carry
// the core's own state are typed as JSON values (`Wire`), never `any`.

/** Any JSON value. */
export type Wire = string | number | boolean | null | Wire[] | { [key: string]: Wire };
export type WireObject = { [key: string]: Wire };

export interface Greeting {
  kind: "greeting";
  version: number;
  forge_version: string;
  forge_version_short: string;
  settings: {
    mark: string | null;
    theme: string | null;
    font: string | null;
    dictate: { styling: string; structure: string; context: string };
  };
}

/** spec: The effective config. */
export interface SettingsDocument {
  version: string;
  source: string;
  fingerprint: string;
  totals: { keys: number; areas: number };
  areas: SettingsArea[];
}
export interface SettingsArea {
  id: string;
  name: string;
  note: string;
  keys: SettingsKey[];
}
export type KeyKind = "string" | "number" | "bool" | "list" | "table" | "set";
export type KeyClass = "live" | "next_session" | "restart" | "not_read_yet";
export interface SettingsKey {
  path: string;
  leaf: string;
  group: string[];
  pattern: string;
  kind: KeyKind;
  value: Wire;
  class: KeyClass;
  edit: {
    kind: "string" | "number" | "bool" | "enum" | "list";
    allowed?: string[];
    required: boolean;
    group?: string;
  };
}

export type RefusalReason = "stale" | "invalid" | "refused" | "io";

/** The `error` frame: what failed and why, in the core's own words. */
export interface ErrorFrame {
  kind: "error";
  what: string;
  why: string;
  seat: Slot | null;
  dispatch_id: string | null;
}

export type ServerMessage =
  | Greeting
  | { kind: "settings"; document: SettingsDocument }
  | { kind: "settings_saved"; id: number }
  | {
    kind: "settings_refused";
    reason: RefusalReason;
    id: number;
    message: string;
    key_path: string | null;
  }
  | { kind: "pong" }
  | { kind: "snapshot"; subject: Subject; data: Wire }
  | { kind: "update"; update: Wire; seq?: number | null; span?: number }
  | { kind: "page"; conversation: Slot; turns: Wire[]; cursor: string | null; cron_names?: Wire }
  | { kind: "seat_frames"; slot: Slot; epoch: string; frames: Wire[] }
  | { kind: "reply"; reply_to: number; body: Wire }
  | ErrorFrame
  | { kind: string; [field: string]: Wire | undefined };
