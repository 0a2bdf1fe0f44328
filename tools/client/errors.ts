import type { Slot } from "../../protocol/mod.ts";

/**
 * forge declined what this client asked: a command's `error` frame, or the refusal a reply
 * command's `reply` carries as its body (spec: command > reply_to). `what` names the request as
 * forge named it, `why` is forge's own sentence, which is also the message.
 */
export class ForgeRefusal extends Error {
  override name = "ForgeRefusal";
  constructor(readonly what: string, readonly why: string, readonly seat: Slot | null = null) {
    super(why);
  }
}

/**
 * The connection is over: this client closed it, or forge (or the network) did. Every wait still
 * out settles with one at once, and sending afterwards throws one; `code` and `reason` are the
 * WebSocket close's own.
 */
export class ConnectionClosed extends Error {
  override name = "ConnectionClosed";
  constructor(readonly code: number, readonly reason: string, doing: string) {
    super(`${doing}: the connection to forge is closed (${closeWords(code, reason)})`);
  }
}

/** A close code and reason as a person reads them. */
export function closeWords(code: number, reason: string): string {
  const said = reason ? `: ${reason}` : "";
  if (code === 1000) return `code 1000, a normal close${said}`;
  if (code === 1001) return `code 1001, forge is shutting down${said}`;
  if (code === 1006) return `code 1006, the connection dropped without a close${said}`;
  return `code ${code}${said}`;
}

/**
 * The socket never opened: forge answered the upgrade with an HTTP status (`status`), or nothing
 * answered at all (`status` null). The message says which, in forge's words.
 */
export class ConnectFailed extends Error {
  override name = "ConnectFailed";
  constructor(readonly url: string, readonly status: number | null, message: string) {
    super(message);
  }
}

/** A frame or a reply that protocol/'s schemas refuse: the wire drifted from the SDK's types. */
export class OffSchema extends Error {
  override name = "OffSchema";
}
