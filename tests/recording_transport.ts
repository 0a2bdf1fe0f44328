import type { Transport } from "../server/socket.ts";

/** A transport that keeps what it was given, text as parsed kinds and binary as its length. */
export function recordingTransport(): Transport & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    open: true,
    bufferedAmount: 0,
    sentBytes: 0,
    send: (data) => {
      sent.push(typeof data === "string" ? JSON.parse(data).kind : `binary:${data.length}`);
    },
    ping: () => {},
    close: () => {},
    abort: () => {},
    pause: () => {},
    resume: () => {},
    onMessage: () => {},
    onInbound: () => {},
    onClose: () => {},
  };
}
