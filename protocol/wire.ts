// The JSON values the wire's state bags carry. Every other protocol file may build on this one;
// it imports nothing, so the update table (update.ts), the commands (command_wire.ts) and the
// server's messages (server.ts) all take it from below.

/** Any JSON value: the field bags that carry the core's own state. */
export type Wire = string | number | boolean | null | Wire[] | { [key: string]: Wire };
export type WireObject = { [key: string]: Wire };
