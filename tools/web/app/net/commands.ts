import {
  type CommandName,
  decodeCommandLenient,
  type ReplyCommandName,
  type Wire,
} from "../../../../protocol/mod.ts";

export { type CommandBody, commandWire } from "../../../../protocol/mod.ts";

// spec: What a client sends > command. The page writes commands against protocol/'s COMMANDS
// table alone: the name is one of its rows and the body its schema's input.

/** The commands whose outcome rides a reply (spec: command > reply_to). */
export type ReplyCommand = ReplyCommandName;

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
