import { Buffer } from "node:buffer";

/**
 * A WebSocket text frame's bytes (RFC 6455 §5.2: FIN, opcode 1, unmasked as a server's frames
 * are), built once for the string a fan-out hands every connection, whatever its size; and a
 * binary frame's header, built once for the bytes a fan-out hands every connection.
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
  const frame = Buffer.allocUnsafe(headLength(length) + length);
  const head = writeHead(frame, 0x81, length);
  frame.write(text, head, "utf8");
  lastText = text;
  lastFrame = frame;
  return frame;
}

let lastPayload: Uint8Array | null = null;
let lastHead: Buffer = Buffer.alloc(0);

/**
 * The header of a binary frame (FIN, opcode 2, unmasked) carrying `payload`, which follows it on
 * the wire as it is: the same Buffer again while `payload` is the same bytes object. A terminal
 * chunk goes to every viewer; `ws` built a header and its write list for each of them.
 */
export function binaryHead(payload: Uint8Array): Buffer {
  if (payload === lastPayload) return lastHead;
  const head = Buffer.allocUnsafe(headLength(payload.length));
  writeHead(head, 0x82, payload.length);
  lastPayload = payload;
  lastHead = head;
  return head;
}

/** The header's length for a payload of `length` bytes (RFC 6455 §5.2). */
function headLength(length: number): number {
  return length < 126 ? 2 : length < 65536 ? 4 : 10;
}

/** Writes the header at the start of `frame`; returns its length. */
function writeHead(frame: Buffer, first: number, length: number): number {
  const head = headLength(length);
  frame[0] = first;
  if (head === 2) frame[1] = length;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  return head;
}
