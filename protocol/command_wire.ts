import type { z } from "zod";
import { describeIssues } from "./issues.ts";
import { parseIgnoringUnknownFields } from "./lenient.ts";
import { splitVariant } from "./variant.ts";
import type { Wire } from "./wire.ts";
import {
  type Command,
  type CommandInput,
  type CommandName,
  COMMANDS,
  type CommandSpec,
  type ReplyCommandName,
  type ReplyOf,
  type WireCommand,
} from "./command.ts";

// spec: How a message is tagged. A command's wire form, both ways: written from a name and its
// fields (commandWire), read back against protocol/'s table (decodeCommand), and the reply rule.

/**
 * What a client writes as command N's fields: protocol/'s input for that command (null for a
 * unit variant), so a misspelt name or a wrong field fails `deno check`. Every body is plain JSON
 * too (`& Wire`), so it crosses as it is written.
 */
export type CommandBody<N extends CommandName> = CommandInput<N> & Wire;

/**
 * The wire form: `"name"` for a unit variant, else `{name: fields}` (spec: How a message is
 * tagged). Typed both as a WireCommand, for a `command` message, and as plain JSON, for a client
 * that carries it untyped.
 */
export function commandWire<N extends CommandName>(
  name: N,
  fields: CommandBody<N>,
): WireCommand & Wire {
  // The name and its fields are typed together here; the computed key alone loses the pairing.
  if (fields === null) return name as WireCommand & Wire;
  return { [name]: fields } as unknown as WireCommand & Wire;
}

/** Whether the command's outcome rides a `reply` (and so requires `reply_to`). */
export function needsReply(name: CommandName): boolean {
  return replySchema(name) !== null;
}

/**
 * The schema of a reply command's success body, null for a command with no reply. A refusal
 * rides the same reply as a string in forge's words. spec: command > reply_to.
 */
export function replySchema<N extends ReplyCommandName>(name: N): z.ZodType<ReplyOf<N>>;
export function replySchema(name: CommandName): z.ZodType | null;
export function replySchema(name: CommandName): z.ZodType | null {
  const spec: CommandSpec = COMMANDS[name];
  return spec.reply ?? null;
}

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/**
 * A command the decoder refused, with its variant's name when the name was known: a refused
 * reply command is still answered through its reply (spec: command > reply_to).
 */
export class CommandRefused extends Error {
  constructor(readonly command: CommandName | null, message: string) {
    super(message);
  }
}

/**
 * Decodes the externally tagged payload. Throws a CommandRefused whose sentence names what was
 * wrong: an unknown variant, a unit variant sent with fields (or the reverse), or the field.
 */
export function decodeCommand(raw: unknown): Command {
  return decodeCommandLenient(raw).command;
}

/** decodeCommand, also naming the unknown fields it ignored (serde's default). */
export function decodeCommandLenient(raw: unknown): { command: Command; ignored: string[] } {
  const variant = splitVariant(raw);
  if (!variant) {
    throw new CommandRefused(null, 'a command is one variant: its name, or {"<name>": {fields}}');
  }
  const { name, bag } = variant;
  if (!isCommandName(name)) throw new CommandRefused(null, `unknown command \`${name}\``);
  const schema: z.ZodType | null = COMMANDS[name].fields;
  if (schema === null) {
    if (typeof raw !== "string") {
      throw new CommandRefused(name, `\`${name}\` is a unit variant: send its name alone`);
    }
    return { command: { name, fields: null } as Command, ignored: [] };
  }
  if (typeof raw === "string") {
    throw new CommandRefused(name, `\`${name}\` needs its fields: {"${name}": {...}}`);
  }
  const parsed = parseIgnoringUnknownFields(schema, bag);
  if (!parsed.success) throw new CommandRefused(name, `${name}: ${describeIssues(parsed.error)}`);
  return { command: { name, fields: parsed.data } as Command, ignored: parsed.ignored };
}
