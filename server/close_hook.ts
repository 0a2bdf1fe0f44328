import type { Peer } from "./subsystem.ts";

/**
 * `fn` run once when each connection handed to the returned function closes. Handing the same open
 * connection again adds nothing, so a handler may call it on every message.
 */
export function onEachClose(fn: (peer: Peer) => void): (peer: Peer) => void {
  const watched = new Set<number>();
  return (peer) => {
    if (watched.has(peer.id)) return;
    watched.add(peer.id);
    peer.onClose(() => {
      watched.delete(peer.id);
      fn(peer);
    });
  };
}
