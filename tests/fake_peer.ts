import type { Peer } from "../server/subsystem.ts";

/** A connection that hears nothing: an answering one (it may answer asks) or a watcher. */
export function fakePeer(answering: boolean): Peer {
  return {
    id: 1,
    answering,
    showing: null,
    send: () => {},
    sendBinary: () => {},
    buffered: () => 0,
    onClose: () => {},
  };
}
