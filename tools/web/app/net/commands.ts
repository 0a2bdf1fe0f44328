import {
  type CommandInput,
  type CommandName,
  decodeCommandLenient,
  type ReplyCommandName,
  type Wire,
  type WireCommand,
} from "../../../../protocol/mod.ts";

// spec: What a client sends > command. The page writes commands against protocol/'s COMMANDS
// table alone: the name is one of its rows and the body its schema's input.

/**
 * What the page writes as a command's fields: the input of protocol/'s schema for that command
 * (null for a unit variant), so a misspelt name or a wrong field fails `deno check`. Every body
 * is plain JSON too (`& Wire`), so it crosses as it is written.
 */
export type CommandBody<N extends CommandName> = CommandInput<N> & Wire;

/** The commands whose outcome rides a reply (spec: command > reply_to). */
export type ReplyCommand = ReplyCommandName;

/** The wire form: `"name"` for a unit variant, else `{name: fields}`. spec: How a message is
 * tagged. */
export function commandWire<N extends CommandName>(name: N, fields: CommandBody<N>): WireCommand {
  // The name and its fields are typed together here; the computed key alone loses the pairing.
  if (fields === null) return name as WireCommand;
  return { [name]: fields } as unknown as WireCommand;
}

/**
 * Why a command built at run time is off protocol/'s schema (its words, naming the command and
 * the field), or null when protocol/'s decoder reads it whole. A field the schema does not know
 * is refused here, though the server would ignore it: the page sends nothing it did not mean.
 */
export function offCommand(name: CommandName, fields: Wire): string | null {
  try {
    const { ignored } = decodeCommandLenient({ [name]: fields });
    return ignored.length > 0 ? `${name}: no field ${ignored.map((f) => `\`${f}\``)}` : null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
