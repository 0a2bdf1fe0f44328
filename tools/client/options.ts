/** How `ForgeClient.connect` dials and keeps a connection, and the server messages it types. */
import type { ServerKind, ServerMessage } from "../../protocol/mod.ts";
import type { ReconnectOptions } from "./redial.ts";

/** One server message of a given kind, as protocol/ types it. */
export type ServerMessageOf<K extends ServerKind> = Extract<ServerMessage, { kind: K }>;

export interface ConnectOptions {
  /** The Origin header a browser would send (forge checks it before the upgrade). */
  origin?: string;
  /** Ask for kind-3 (gzip JSON) frames; they are inflated in order in the read path. */
  deflate?: boolean;
  /** Check every frame against protocol/'s schemas into `schemaErrors`. */
  validate?: boolean;
  /** Hold at most this many frames in `frames` (a long-running watcher); unbounded otherwise. */
  keep?: number;
  /**
   * Dial forge again when the socket drops (redial.ts has the options): every subscription held,
   * a `follow`'s or one sent by hand, is asked for again in the order held (a followed seat's
   * from the number it holds), `onLink`'s `reconnected` says what came back, and a command out at
   * the drop rejects with a ConnectionClosed (it is never sent again). `true` takes the defaults.
   * Off unless asked.
   */
  reconnect?: ReconnectOptions | true;
}
