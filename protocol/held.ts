import { z } from "zod";
import { SlackDraft } from "./connectors.ts";
import { DocumentKind } from "./documents.ts";
import { KeyClass, KeyValue } from "./config_key.ts";
import { VaultAskRequest } from "./vault.ts";

// spec: session > pending_asks, Editing the config, and the vault's paragraph: a tool call that
// needs a person parks as a held ask. Its card crosses as `<kind>_pending {key, ...request, id}`
// (a Slack post as `slack_post_pending {key, draft}`) and its end as `<kind>_resolved {key, id,
// ending}`; `pending_asks[].request` carries the same card. These are the cards, one per kind.

/** The held kinds, in the order `pending_asks` leads with them. */
export const HELD_KINDS = [
  "slack_post",
  "browser_hand_off",
  "document_hand_off",
  "terminal_hand_off",
  "vault_ask",
  "settings_write",
] as const;
export type HeldKind = typeof HELD_KINDS[number];

/** How a parked ask ended: in its `*_resolved` update and in the words the agent gets back. */
export const AskEnding = z.enum([
  "answered",
  "declined",
  "cancelled",
  "session_ended",
  "expired",
  "abandoned",
]);
export type AskEnding = z.infer<typeof AskEnding>;

const reason = z.string().describe("why the agent asks, in its own words");

/** A browser hand-off's card: the person is asked to act in one of the seat's tabs. */
export const BrowserHandOffRequest = z.object({
  reason,
  tab: z.number().int().describe("the tab's number in the profile's strip"),
  page: z.string().describe("the tab's CDP target id"),
  profile: z.string().describe("the browser profile's key"),
}).strict();

/** A document hand-off's card: the person is asked to read (and maybe review) one document. */
export const DocumentHandOffRequest = z.object({
  path: z.string().describe("the document's resolved absolute path"),
  reviewable: z.boolean().describe("whether the viewer offers the document's review"),
  reason,
  document_kind: DocumentKind.describe(
    'the kind the read detected: "markdown", "pdf", "text" or {other}',
  ),
}).strict();

/** A terminal hand-off's card: the person is asked to act in the seat's terminal. */
export const TerminalHandOffRequest = z.object({
  reason,
  terminal: z.number().int().describe("the terminal's wire id"),
}).strict();

/** A settings write's card: every key with the value it holds now and the value it would get. */
export const SettingsWriteRequest = z.object({
  tool: z.string().describe("the settings tool that asked (settings__set or settings__unset)"),
  keys: z.array(
    z.object({
      path: z.string(),
      class: KeyClass,
      now: KeyValue.nullable().describe("the key's value now; null: unset"),
      after: KeyValue.nullable().describe("the value the write gives it; null clears it"),
    }).strict(),
  ).describe("each key the write touches: its path, class, value now and value after"),
  reason: z.string().nullable().describe("why, in the agent's words; null when it gave none"),
}).strict();

/** Each held kind's card as `park` takes it (without the `id` the registry adds). */
export const HELD_REQUESTS = {
  slack_post: SlackDraft,
  browser_hand_off: BrowserHandOffRequest,
  document_hand_off: DocumentHandOffRequest,
  terminal_hand_off: TerminalHandOffRequest,
  vault_ask: VaultAskRequest,
  settings_write: SettingsWriteRequest,
} as const satisfies Record<HeldKind, z.ZodObject>;
export type HeldRequest<K extends HeldKind> = z.infer<(typeof HELD_REQUESTS)[K]>;

/**
 * Each held kind's two updates (a Slack post resolves as `slack_draft_resolved`). The update
 * table sits above this file, so update.ts checks that every name here is one of its rows.
 */
export const HELD_UPDATES = {
  slack_post: { pending: "slack_post_pending", resolved: "slack_draft_resolved" },
  browser_hand_off: { pending: "browser_hand_off_pending", resolved: "browser_hand_off_resolved" },
  document_hand_off: {
    pending: "document_hand_off_pending",
    resolved: "document_hand_off_resolved",
  },
  terminal_hand_off: {
    pending: "terminal_hand_off_pending",
    resolved: "terminal_hand_off_resolved",
  },
  vault_ask: { pending: "vault_ask_pending", resolved: "vault_ask_resolved" },
  settings_write: { pending: "settings_write_pending", resolved: "settings_write_resolved" },
} as const satisfies Record<HeldKind, { pending: string; resolved: string }>;

/** A parked card of any kind, with the id the registry gave it. */
export type HeldCard = HeldRequest<HeldKind> & { id: string };
