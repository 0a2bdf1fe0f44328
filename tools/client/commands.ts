import {
  type CommandName,
  describeIssues,
  isCommandName,
  parseIgnoringUnknownFields,
  type ReplyCommandName,
  type ReplyOf as ReplyBody,
  replySchema,
  type Wire,
} from "../../protocol/mod.ts";
import { ForgeRefusal, OffSchema } from "./errors.ts";

export { type CommandBody, commandWire } from "../../protocol/mod.ts";

// spec: What a client sends > command. Commands are written against protocol/'s COMMANDS table
// alone: the name is one of its rows, the body its schema's input, the answer its reply schema's.

/** The commands whose outcome rides a reply (spec: command > reply_to). */
export type ReplyCommand = ReplyCommandName;

/** What a command answers: its reply schema's output, or null for a fire-and-forget command. */
export type ReplyOf<N extends CommandName> = N extends ReplyCommandName ? ReplyBody<N> : null;

/** The variant a command's wire form names, or null when it is not one variant. */
export function commandNameOf(wire: unknown): string | null {
  if (typeof wire === "string") return wire;
  if (!wire || typeof wire !== "object" || Array.isArray(wire)) return null;
  const keys = Object.keys(wire);
  return keys.length === 1 ? keys[0] : null;
}

/** Whether a command by this name answers through a reply, and so is sent with `reply_to`. */
export function answersByReply(name: string | null): boolean {
  return name !== null && isCommandName(name) && replySchema(name) !== null;
}

/**
 * Reads a reply's body for the command `name`: its answer when the reply schema takes it, a
 * ForgeRefusal when it is forge's sentence instead (spec: command > reply_to: "a refusal arrives
 * in that same reply, as the body"), an OffSchema error otherwise. A command whose answer is
 * itself a string (biometric_release's blob) answers the string: the wire cannot tell the two.
 */
export function readReply(name: string, body: Wire): Wire {
  const schema = isCommandName(name) ? replySchema(name) : null;
  if (!schema) {
    if (typeof body === "string") throw new ForgeRefusal(name, body);
    return body;
  }
  const read = parseIgnoringUnknownFields(schema, body);
  if (read.success) return read.data as Wire;
  if (typeof body === "string") throw new ForgeRefusal(name, body);
  throw new OffSchema(
    `forge's reply to ${name} is off protocol/'s schema: ${describeIssues(read.error)}`,
  );
}
