/**
 * forge's TypeScript SDK over the socket, and the client every test drives forge with: the
 * entry point. ForgeClient (tools/client/client.ts) connects, sends typed messages, runs commands
 * to their answer, follows subjects with their seat streams repaired, holds every subscription
 * and viewer attachments across a reconnect (when asked) and waits for frames; the rest are the types and errors it
 * answers with. docs/client.md shows it in use.
 */
export { ForgeClient } from "./client/client.ts";
export type { ConnectOptions, ServerMessageOf } from "./client/options.ts";
export {
  type CommandBody,
  commandWire,
  type ReplyCommand,
  type ReplyOf,
} from "./client/commands.ts";
export { COMMAND_BOUND_MS } from "./client/desk.ts";
export { ConnectFailed, ConnectionClosed, ForgeRefusal, OffSchema } from "./client/errors.ts";
export { type FollowEvent, Following } from "./client/follow.ts";
export { hears, type SnapshotOf } from "./client/subjects.ts";
export { decodeFrame, type Frame } from "./client/frames.ts";
export type { Numbered } from "./client/seat_stream.ts";
export type { LinkEvent, ReconnectOptions } from "./client/redial.ts";
export type { Restoration, Subscription } from "./client/subscriptions.ts";
export type { Attachment, Reattachment } from "./client/attachments.ts";
export { readVerbReply, type VerbReplyOf } from "./client/verbs.ts";
