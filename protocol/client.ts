import { z } from "zod";
import { BrowserGesture } from "./browser_frames.ts";
import type { WireCommand } from "./command.ts";
import { HandOffAnswer } from "./documents.ts";
import { Slot } from "./slot.ts";
import { Subject } from "./subject.ts";
import { KeyValue } from "./config_key.ts";

// spec: What a client sends. Every message is tagged on `kind`, beside its own fields.

const Json = z.json();
const replyTo = z.number().int().nonnegative().nullable().optional();
const msg = <K extends string, T extends z.ZodRawShape>(kind: K, shape: T) =>
  z.object({ kind: z.literal(kind), ...shape }).strict();

/**
 * `command`'s field: a writer's type is the `WireCommand` (a misspelt name does not compile), the
 * envelope reads JSON, and the command handler decodes it through COMMANDS, whose refusal names
 * the variant and its field where the envelope's could name only `command`.
 */
const CommandField = Json as unknown as z.ZodType<z.output<typeof Json>, WireCommand>;

/**
 * spec: Editing the config. `set`'s value is the key's new value in its kind's shape, `null`
 * clearing it; `add`'s is the new entry's fields, each a key's value.
 */
export const SettingsValue = z.union([KeyValue, z.record(z.string(), KeyValue)]).nullable();
export type SettingsValue = z.infer<typeof SettingsValue>;

export const SettingsEdit = z.object({
  area: z.string(),
  key_path: z.string(),
  pattern: z.string(),
  op: z.enum(["set", "add", "remove"]),
  value: SettingsValue.optional(),
}).strict();
export type SettingsEdit = z.infer<typeof SettingsEdit>;

/**
 * One of a page's perf records. spec: client_perf - the records cross "as the page serialised
 * them" and the spec gives them no fields, so forge asks only that each is an object naming what
 * it measured (a performance entry's `name`, as a mark or a measure carries it); its other
 * fields are the page's own and land in forge-perf-web.log as sent.
 */
export const PerfRecord = z.object({ name: z.string().min(1) }).catchall(Json);
export type PerfRecord = z.infer<typeof PerfRecord>;

export const ClientMessage = z.discriminatedUnion("kind", [
  msg("ping", {}),
  msg("subscribe", {
    what: Subject,
    answering: z.boolean().optional(),
    review: z.boolean().optional(),
  }),
  msg("unsubscribe", { what: Subject }),
  msg("showing", { seat: Slot.nullable() }),
  msg("more", {
    conversation: Slot,
    before: z.string().nullable().optional(),
    turns: z.number().int().positive(),
  }),
  msg("seat_range", {
    slot: Slot,
    epoch: z.string(),
    from: z.number().int().nonnegative(),
    to: z.number().int().nonnegative(),
  }),
  msg("command", { command: CommandField, reply_to: replyTo }),
  msg("client_perf", { records: z.array(PerfRecord) }),
  msg("settings_edit", {
    fingerprint: z.string(),
    id: z.number().int(),
    edits: z.array(SettingsEdit),
  }),
  msg("document_read", { session: Slot, path: z.string(), reviewable: z.boolean() }),
  msg("answer_document_hand_off", { key: Slot, id: z.string(), answer: HandOffAnswer }),
  msg("file_content", { session: Slot, path: z.string(), sha: z.string().nullable() }),
  // spec: "What is not here" names commit_diff, a read asked on demand, and gives no shape: its
  // fields here and its answer's (protocol/server.ts, verb_replies.ts) are forge's reading.
  msg("commit_diff", { session: Slot, sha: z.string(), reply_to: replyTo }),
  msg("browser_view", {
    seat: Slot,
    tab: z.number().int().nonnegative().optional(),
    reply_to: replyTo,
  }),
  msg("browser_view_page", { seat: Slot, target: z.string(), reply_to: replyTo }),
  msg("browser_detach", {}),
  msg("browser_resize", {
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    scale: z.number().positive(),
  }),
  msg("browser_input", { seq: z.number().int().nonnegative(), event: BrowserGesture }),
  msg("browser_control", { take: z.boolean() }),
  msg("browser_nav", { back: z.boolean() }),
  msg("browser_file_answer", {
    id: z.string(),
    files: z.array(z.object({ name: z.string(), data: z.string() }).strict()),
  }),
  msg("browser_tabs", { seat: Slot, reply_to: replyTo }),
  msg("terminal_view", {
    seat: Slot,
    id: z.number().int().nonnegative().optional(),
    reply_to: replyTo,
  }),
  msg("terminal_detach", {}),
  msg("terminal_resize", {
    seat: Slot,
    id: z.number().int().nonnegative(),
    cols: z.number().int().min(2).max(1000),
    rows: z.number().int().min(1).max(1000),
  }),
  msg("terminal_pause", { paused: z.boolean() }),
  msg("terminal_control", { seat: Slot, id: z.number().int().nonnegative(), take: z.boolean() }),
  msg("terminal_close", { seat: Slot, id: z.number().int().nonnegative() }),
  msg("voice_mode", { key: Slot, on: z.boolean(), explicit: z.boolean() }),
  msg("voice_preview", { key: Slot, voice: z.string().nullable() }),
]);
/** What a client sends: a `command` is typed as a `WireCommand`. */
export type ClientMessage = z.input<typeof ClientMessage>;
/**
 * A client message as the server holds it once the envelope parsed: the same, but for a
 * `command`, which is still JSON until its handler decodes it (`decodeCommand`).
 */
export type ReceivedMessage = z.output<typeof ClientMessage>;
export type ClientKind = ClientMessage["kind"];
/** One client message of a given kind, as its handler receives it. */
export type ClientMessageOf<K extends ClientKind> = Extract<ReceivedMessage, { kind: K }>;

export const CLIENT_KINDS: readonly ClientKind[] = ClientMessage.options.map((o) =>
  o.shape.kind.value
);
