import { z } from "zod";
import { KeyClass, KeyKind, KeyValue } from "./config_key.ts";
import { DocumentReadFrame } from "./documents.ts";
import { FileContent, LayerState } from "./review_record.ts";
import { ConversationTurn } from "./session.ts";
import { Slot } from "./slot.ts";
import { BrowserTabList } from "./verb_replies.ts";
import { Subject } from "./subject.ts";
import { WireUpdate } from "./update.ts";
import type { Wire } from "./wire.ts";

// spec: What a client receives. Every server message is tagged on `kind`. These schemas are the
// one source of the server's wire types: the server builds values of the inferred types, and a
// client (or a test) validates what it receives against `ServerMessage`.

const Json = z.json();
const msg = <K extends string, T extends z.ZodRawShape>(kind: K, shape: T) =>
  z.object({ kind: z.literal(kind), ...shape }).strict();

export const Greeting = msg("greeting", {
  version: z.number().int(),
  forge_version: z.string(),
  forge_version_short: z.string(),
  settings: z.object({
    mark: z.string().nullable(),
    theme: z.string().nullable(),
    font: z.string().nullable(),
    dictate: z.object({ styling: z.string(), structure: z.string(), context: z.string() }).strict(),
  }).strict(),
});
export type Greeting = z.infer<typeof Greeting>;

/** One key of the effective config. spec: The effective config. */
export const SettingsKey = z.object({
  path: z.string(),
  leaf: z.string(),
  group: z.array(z.string()),
  pattern: z.string(),
  kind: KeyKind,
  value: KeyValue.nullable(),
  class: KeyClass,
  edit: z.object({
    kind: z.enum(["string", "number", "bool", "enum", "list"]),
    allowed: z.array(z.string()).optional(),
    required: z.boolean(),
    group: z.string().optional(),
  }).strict(),
  // forge's extension (SERVER_FIELD_EXTENSIONS below): absent where it says nothing, so a client
  // that does not know the field reads the document as before.
  in_force: KeyValue.nullable().optional().describe(
    "forge's extension: on a restart key whose file value differs from the running server's, " +
      "the value still in force (null: not there at boot); absent otherwise",
  ),
}).strict();

/**
 * The fields forge adds to v29's own server messages, as `kind.path` (`[]` steps into a list)
 * with why; protocol/beyond.ts lists them beside the rest and docs/protocol.md marks each.
 */
export const SERVER_FIELD_EXTENSIONS = {
  "settings.document.areas[].keys[].in_force":
    "on a `restart` key whose file value differs from the one the running server was built " +
    "with, the value still in force (null: the key was not there at boot), so a page can say " +
    "what a restart would change; v29's settings document carries the file's value alone",
  "browser_tabs.audio_off":
    "why an up host plays no page audio (PulseAudio cannot run), else null, so a silent tab " +
    "is said rather than sent nothing; the browser_tabs reply's `tabs` carries the same list",
} as const;
export type SettingsKey = z.infer<typeof SettingsKey>;

export const SettingsArea = z.object({
  id: z.string(),
  name: z.string(),
  note: z.string(),
  keys: z.array(SettingsKey),
}).strict();
export type SettingsArea = Omit<z.infer<typeof SettingsArea>, "keys"> & { keys: SettingsKey[] };

export const SettingsDocument = z.object({
  version: z.string(),
  source: z.string(),
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  totals: z.object({ keys: z.number().int(), areas: z.number().int() }).strict(),
  areas: z.array(SettingsArea),
}).strict();
export type SettingsDocument = Omit<z.infer<typeof SettingsDocument>, "areas"> & {
  areas: SettingsArea[];
};

export const RefusalReason = z.enum(["stale", "invalid", "refused", "io"]);
export type RefusalReason = z.infer<typeof RefusalReason>;

/** The `error` frame: what failed and why, in the core's own words. */
export const ErrorFrame = msg("error", {
  what: z.string(),
  why: z.string(),
  seat: Slot.nullable(),
  dispatch_id: z.string().nullable(),
});
export type ErrorFrame = z.infer<typeof ErrorFrame>;

/** The `update` frame: one update and its place in its seat's numbered stream. */
export const UpdateFrame = msg("update", {
  update: WireUpdate,
  seq: z.number().int().nullable().optional(),
  span: z.number().int().optional(),
});

/** One row of a `seat_frames` answer: its number and its update, as a live `update` carries it. */
export const RangeFrame = z.object({ seq: z.number().int().nonnegative(), update: WireUpdate })
  .strict();
export type RangeFrame = { seq: number; update: Wire };

/** The `seat_frames` answer: the numbered frames a `seat_range` asked for. */
export const SeatFramesFrame = msg("seat_frames", {
  slot: Slot,
  epoch: z.string(),
  frames: z.array(RangeFrame),
});

const slotBag = { seat: Slot, id: z.number().int() };

/** Every message the server sends. */
export const ServerMessage = z.discriminatedUnion("kind", [
  Greeting,
  msg("settings", { document: SettingsDocument }),
  msg("settings_saved", { id: z.number().int() }),
  msg("settings_refused", {
    reason: RefusalReason,
    id: z.number().int(),
    message: z.string(),
    key_path: z.string().nullable(),
  }),
  msg("pong", {}),
  // `data`'s shape hangs on `subject`: it is read against SNAPSHOT_SCHEMAS (protocol/snapshots.ts,
  // snapshotSchema), and the server's handlers are typed by that map (server/subsystem.ts).
  msg("snapshot", {
    subject: Subject,
    data: Json.describe("the subject's snapshot: its SNAPSHOT_SCHEMAS row (snapshotSchema)"),
  }),
  UpdateFrame,
  msg("page", {
    conversation: Slot,
    turns: z.array(ConversationTurn),
    cursor: z.string().nullable(),
    // spec: page > cron_names: the schedule each fired prompt came from, by the prompt's id.
    cron_names: z.record(z.string(), z.string()).optional(),
  }),
  SeatFramesFrame,
  // `body`'s shape hangs on what the reply_to asked, which only the asker knows: a reply command's
  // COMMANDS `reply` or a verb's VERB_REPLIES row (WireChecker, the SDK's command() and verb()).
  msg("reply", {
    reply_to: z.number().int(),
    body: Json.describe(
      "the answer: the reply schema of the command (COMMANDS' reply) or verb (VERB_REPLIES) " +
        "that reply_to asked, or a command's refusal as forge's sentence",
    ),
  }),
  ErrorFrame,
  DocumentReadFrame,
  msg("file_content", {
    session: Slot,
    path: z.string(),
    sha: z.string().nullable(),
    content: FileContent,
  }),
  // The answer to commit_diff without reply_to; its shape is forge's reading (protocol/client.ts).
  msg("commit_diff", {
    session: Slot,
    sha: z.string(),
    ok: z.boolean(),
    commit: z.string().optional(),
    diff: LayerState.optional(),
    why: z.string().optional(),
  }),
  msg("terminal_view", {
    ...slotBag,
    cols: z.number().int(),
    rows: z.number().int(),
    seq: z.number().int(),
    screen: z.string(),
    viewers: z.number().int(),
    viewer: z.number().int(),
    controller: z.number().int().nullable(),
  }),
  msg("terminal_control", { ...slotBag, controller: z.number().int().nullable() }),
  msg("browser_view", {
    id: z.number().int(),
    profile: z.string(),
    tab: z.number().int(),
    controller: z.number().int().nullable(),
    viewers: z.number().int(),
    viewer: z.number().int(),
  }),
  msg("browser_nav_state", {
    id: z.number().int(),
    tab: z.number().int(),
    can_back: z.boolean(),
    can_forward: z.boolean(),
  }),
  // The same list the browser_tabs reply carries (protocol/verb_replies.ts).
  msg("browser_tabs", BrowserTabList.shape),
  msg("browser_surface_failed", {
    id: z.number().int(),
    tab: z.number().int(),
    reason: z.string(),
  }),
  msg("browser_file_dialog", { id: z.string(), tab: z.number().int(), multiple: z.boolean() }),
  msg("browser_download", {
    tab: z.number().int().optional(),
    name: z.string(),
    data: z.string().nullable(),
    error: z.string().nullable(),
    dropped: z.boolean().optional(),
    lost: z.number().int().optional(),
  }),
]);
/** A server message. The state bags (`data`, `update`, `body`) are JSON values, never `any`. */
export type ServerMessage =
  | Exclude<
    z.infer<typeof ServerMessage>,
    { kind: "settings" | "snapshot" | "update" | "reply" | "page" | "seat_frames" }
  >
  | { kind: "settings"; document: SettingsDocument }
  | { kind: "snapshot"; subject: Subject; data: Wire }
  | { kind: "update"; update: Wire; seq?: number | null; span?: number }
  | { kind: "reply"; reply_to: number; body: Wire }
  | {
    kind: "page";
    conversation: Slot;
    turns: ConversationTurn[];
    cursor: string | null;
    cron_names?: Record<string, string>;
  }
  | { kind: "seat_frames"; slot: Slot; epoch: string; frames: RangeFrame[] };
export type ServerKind = ServerMessage["kind"];
