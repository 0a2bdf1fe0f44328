import { z } from "zod";
import { Slot } from "./slot.ts";

// The connectors' wire shapes. Where the spec leaves a shape open these are the original
// forge's: its connector commands and updates, GotifyNotification, SlackDraftEnding and home's
// connectors.

/** A Gotify notification as a seat receives it: the original's GotifyNotification. */
export const GotifyNotification = z.object({
  app: z.string(),
  title: z.string(),
  message: z.string(),
  priority: z.number().int().min(0).max(255),
}).strict();
export type GotifyNotification = z.infer<typeof GotifyNotification>;

/**
 * `deliver_gotify_message` (the original's command): a notification delivered into a project's
 * lead, by the project's name. The original's optional `team_role` picked a member of a team; forge
 * delivers to the lead alone, so the field is not declared and is ignored as any unknown field is.
 */
export const DeliverGotifyMessageFields = z.object({
  project: z.string(),
  notification: GotifyNotification,
}).strict();
export type DeliverGotifyMessageFields = z.infer<typeof DeliverGotifyMessageFields>;

/** One seat's Gotify subscription (the original's `gotify` tools): any-of app names, a floor. */
export const GotifySubscription = z.object({
  id: z.string(),
  org: z.string(),
  project: z.string(),
  /** The label of the seat that made it: its notifications are delivered there. */
  owner: z.string(),
  /** Application names, any of them; empty means every application. */
  applications: z.array(z.string()),
  min_priority: z.number().int().min(0).max(255),
}).strict();
export type GotifySubscription = z.infer<typeof GotifySubscription>;

/** How a subscribed conversation is read: every message, or only those mentioning the user. */
export const SlackConversationMode = z.enum(["all", "mentions"]);

/** One seat's Slack subscription, as the original forge's `slack` tool family makes it. */
export const SlackSubscription = z.object({
  id: z.string(),
  org: z.string(),
  project: z.string(),
  owner: z.string(),
  workspace: z.string(),
  direct_messages: z.boolean(),
  mentions: z.boolean(),
  conversations: z.array(z.object({ id: z.string(), mode: SlackConversationMode }).strict()),
}).strict();
export type SlackSubscription = z.infer<typeof SlackSubscription>;

/** A project's two subscription sets: the board's `connectors` and the update's body. */
export const ConnectorSets = z.object({
  gotify: z.array(GotifySubscription),
  slack: z.array(SlackSubscription),
}).strict();
export type ConnectorSets = z.infer<typeof ConnectorSets>;

/** `connector_subscriptions_changed` (the original's): a project's sets, keyed by its lead. */
export const ConnectorSubscriptionsChanged = z.object({ key: Slot }).extend(ConnectorSets.shape)
  .strict();

/**
 * A draft waiting for a person (the approval gate of the original forge's `slack` tools): what
 * would go out, and where.
 * `parts` is the text as it would be sent, split at 4,000 characters and numbered.
 */
export const SlackDraft = z.object({
  id: z.string(),
  workspace: z.string(),
  conversation: z.string(),
  thread_ts: z.string().nullable(),
  /** post, edit, delete, react, unreact or upload: what approving does. */
  action: z.enum(["post", "edit", "delete", "react", "unreact", "upload"]),
  text: z.string(),
  parts: z.array(z.string()),
}).strict();
export type SlackDraft = z.infer<typeof SlackDraft>;

/** How a draft ended: the original's SlackDraftEnding. */
export const SlackDraftEnding = z.union([
  z.literal("expired"),
  z.literal("abandoned"),
  z.object({ answered: z.object({ approved: z.boolean() }).strict() }).strict(),
]);
export type SlackDraftEnding = z.infer<typeof SlackDraftEnding>;

/** `slack_post_pending {key, draft}`, the original's update. */
export const SlackPostPending = z.object({ key: Slot, draft: SlackDraft }).strict();
/**
 * `slack_draft_resolved {key, id, ending, failure}`, the original's update. `failure` is forge's:
 * an approved draft resolves once Slack has it, and names why not when the send failed.
 */
export const SlackDraftResolved = z.object({
  key: Slot,
  id: z.string(),
  ending: SlackDraftEnding,
  failure: z.string().nullable(),
}).strict();
/** `gotify_notification_appended {key, notification, uuid}`, the original's update. */
export const GotifyNotificationAppended = z.object({
  key: Slot,
  notification: GotifyNotification,
  uuid: z.string(),
}).strict();
/** `slack_message_appended {key, prose, uuid}`, the original's update. */
export const SlackMessageAppended = z.object({
  key: Slot,
  prose: z.string(),
  uuid: z.string(),
}).strict();

/**
 * home's `connectors` (spec: What a subject carries > home > connectors; the original's shape):
 * Gotify's connection, each Slack workspace's, and whether the stored subscription set failed to
 * load. `gotify.configured` and `gotify.error` / `load_error` are forge's: a missing [gotify] and a
 * down server both read as not connected, and the words say which.
 */
export const ConnectorsHome = z.object({
  gotify: z.object({
    connected: z.boolean(),
    configured: z.boolean(),
    error: z.string().nullable(),
  }).strict(),
  slack: z.object({
    connected_workspaces: z.array(z.tuple([z.string(), z.boolean()])),
    load_failed: z.boolean(),
    load_error: z.string().nullable(),
  }).strict(),
}).strict();
export type ConnectorsHome = z.infer<typeof ConnectorsHome>;
