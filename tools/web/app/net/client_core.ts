import type { ClientMessage, CommandName, ErrorFrame, Wire } from "../../../../protocol/mod.ts";
import type { Clock } from "../../../../server/clock.ts";
import type { CommandBody } from "./commands.ts";
import type { Link } from "./link.ts";
import type { AppState, Store } from "./store.ts";

/**
 * What the client's parts (browser_wire, dictation, seat_attach, subjects, terminal_wire,
 * voice_wire) use of the ForgeClient that builds them (client.ts): the store it writes and the
 * one place that sends. Declared below them all, so no part imports client.ts back.
 */
export interface ClientCore {
  readonly store: Store;
  /** The store's state (`store.state`). */
  readonly state: AppState;
  /** The socket: the parts send binary frames on it (dictation, the terminal's input). */
  readonly link: Link;
  /** The timers the client runs on; set after its parts are made, so read at use. */
  readonly clock: Clock;
  send(message: ClientMessage): boolean;
  /** A command built against protocol/'s COMMANDS; false when nothing was sent. */
  command<N extends CommandName>(name: N, fields: CommandBody<N>): boolean;
  /** A message carrying `reply_to`: answers the reply's body or rejects in words. */
  ask(build: (replyTo: number) => ClientMessage): Promise<Wire>;
  /** Words for the notices. */
  note(m: ErrorFrame): void;
  /** A frame off protocol/'s schemas: counted and said. */
  offSchema(why: string): void;
}
