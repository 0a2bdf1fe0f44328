import { Buffer } from "node:buffer";

/**
 * A WebSocket text frame's bytes (RFC 6455 §5.2: FIN, opcode 1, unmasked as a server's frames
 * are), built once for the string a fan-out hands every connection, whatever its size.
 *
 * Why: `ws` frames each send of its own, encoding the string to UTF-8 and allocating a header and
 * its write list per socket. A CLI line fanned out to 50 clients is the same string 50 times, and
 * a heap profile of the latency arms put 36% of the server's allocations in that send path (the
 * young garbage behind its GC pauses). The transport writes these bytes to the TCP socket itself;
 * `ws` never queues a frame of its own here (no permessage-deflate, no Blob data), so frames
 * written either way leave in the order they were sent.
 */
let lastText: string | null = null;
let lastFrame: Buffer = Buffer.alloc(0);

/** The frame for `text`; the same Buffer again while `text` is the same string. */
export function textFrame(text: string): Buffer {
  if (text === lastText) return lastFrame;
  const length = Buffer.byteLength(text);
  const head = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + length);
  frame[0] = 0x81;
  if (head === 2) frame[1] = length;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, head, "utf8");
  lastText = text;
  lastFrame = frame;
  return frame;
}
