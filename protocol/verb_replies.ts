import { z } from "zod";
import type { ClientKind } from "./client.ts";
import { LayerState } from "./review_record.ts";
import { Slot } from "./slot.ts";

// The reply bodies of the client verbs that carry `reply_to` themselves (not commands: their
// replies are COMMANDS' `reply` schemas): `browser_tabs`, `browser_view`, `browser_view_page`,
// `terminal_view` and `commit_diff`. The server builds each body as the inferred type and a page
// reads it with the schema, so the two cannot drift apart. A refusal rides the same reply as
// forge's words.

/** A verb refused in its reply: `{"ok": false, "why": ...}`. */
export const VerbRefusal = z.object({ ok: z.literal(false), why: z.string() }).strict();
export type VerbRefusal = z.infer<typeof VerbRefusal>;

/**
 * One row of a profile's tab strip. spec: browser_tabs - `{number, title, url, owner, opener,
 * state, dialog}`: the host's own tab number, the session whose calls drive it, the tab that
 * opened it, `in_use` / `idle` / `held`, and the page dialog holding it.
 */
export const BrowserTabRow = z.object({
  number: z.number().int(),
  title: z.string(),
  url: z.string(),
  owner: Slot.nullable(),
  opener: z.number().int().nullable(),
  state: z.enum(["in_use", "idle", "held"]),
  dialog: z.object({ kind: z.string(), message: z.string() }).strict().nullable(),
}).strict();
export type BrowserTabRow = z.infer<typeof BrowserTabRow>;

/**
 * A profile's strip: the `browser_tabs` reply's `tabs` and the pushed `browser_tabs` frame's own
 * fields. spec: browser_tabs `{profile, id, up, connected, closing_at_ms, rows}`; `audio_off` is
 * forge's extension (protocol/server.ts SERVER_FIELD_EXTENSIONS).
 */
export const BrowserTabList = z.object({
  profile: z.string(),
  id: z.number().int(),
  up: z.boolean(),
  connected: z.boolean(),
  closing_at_ms: z.number().nullable(),
  audio_off: z.string().nullable().describe(
    "forge's extension: why an up host plays no page audio (PulseAudio cannot run), else null",
  ),
  rows: z.array(BrowserTabRow),
}).strict();
export type BrowserTabList = z.infer<typeof BrowserTabList>;

/** `browser_tabs`'s reply. spec: browser_tabs ("{"ok": true, "tabs": {...}}"). */
export const BrowserTabsReply = z.union([
  z.object({ ok: z.literal(true), tabs: BrowserTabList }).strict(),
  VerbRefusal,
]);
export type BrowserTabsReply = z.infer<typeof BrowserTabsReply>;

/** `browser_view` and `browser_view_page`'s reply: the profile and the tab attached. */
export const BrowserViewReply = z.union([
  z.object({ ok: z.literal(true), profile: z.string(), tab: z.number().int() }).strict(),
  VerbRefusal,
]);
export type BrowserViewReply = z.infer<typeof BrowserViewReply>;

/** `terminal_view`'s reply: the terminal attached (its id), or why not. */
export const TerminalViewReply = z.union([
  z.object({ ok: z.literal(true), id: z.number().int() }).strict(),
  VerbRefusal,
]);
export type TerminalViewReply = z.infer<typeof TerminalViewReply>;

/**
 * `commit_diff`'s reply, when it was asked with `reply_to`: the commit and its own diff, or why
 * not. Without `reply_to` the answer is the `commit_diff` message (or an error naming the verb).
 */
export const CommitDiffReply = z.union([
  z.object({ ok: z.literal(true), commit: z.string(), diff: LayerState }).strict(),
  VerbRefusal,
]);
export type CommitDiffReply = z.infer<typeof CommitDiffReply>;

/** Each client verb that carries `reply_to`, with its reply's schema. */
export const VERB_REPLIES = {
  browser_tabs: BrowserTabsReply,
  browser_view: BrowserViewReply,
  browser_view_page: BrowserViewReply,
  terminal_view: TerminalViewReply,
  commit_diff: CommitDiffReply,
} as const satisfies Partial<Record<ClientKind, z.ZodType>>;
export type ReplyVerb = keyof typeof VERB_REPLIES;
