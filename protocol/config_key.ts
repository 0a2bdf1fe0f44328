import { z } from "zod";

// spec: The effective config. A key's kind, reload class and value, apart from the settings
// messages so protocol/held.ts (a settings_write card names a key's class and values) reads them
// without server.ts, which reads the update table that held.ts feeds.

export const KeyKind = z.enum(["string", "number", "bool", "list", "table", "set"]);
export type KeyKind = z.infer<typeof KeyKind>;
export const KeyClass = z.enum(["live", "next_session", "restart", "not_read_yet"]);
export type KeyClass = z.infer<typeof KeyClass>;

/**
 * A config key's value in the shape of its kind (KeyKind above, the catalogue's kinds): a string,
 * number or bool; a `list`/`set` of strings or numbers; a `table` whose values are strings,
 * numbers or lists of strings. An edit's value is checked against its own key's kind on top of
 * this (server/config/edit_kinds.ts), since the wire cannot tell one key from another.
 */
const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const ListItem = z.union([z.string(), z.number()]);
export const KeyValue = z.union([
  Scalar,
  z.array(ListItem),
  z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])),
]);
export type KeyValue = z.infer<typeof KeyValue>;
