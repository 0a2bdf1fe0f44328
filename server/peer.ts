import type { ServerMessage, Slot } from "../protocol/mod.ts";

// What a handler sees of the connection a message came from: the one piece of a connection the
// subsystem contract (subsystem.ts) and the held asks (held_asks.ts) both name, so it sits below
// them. Subsystems import it through server/subsystem.ts.

/** What a handler sees of the connection a message came from. */
export interface Peer {
  readonly id: number;
  /** Whether this connection registered as able to answer prompts. spec: subscribe > answering. */
  readonly answering: boolean;
  /** The seat this connection has on screen. spec: showing. */
  readonly showing: Slot | null;
  send(message: ServerMessage): void;
  sendBinary(bytes: Uint8Array): void;
  /** Bytes queued to this peer and not yet written: how far behind it is. */
  buffered(): number;
  /** Runs once when the connection ends, whatever ended it. */
  onClose(fn: () => void): void;
}
