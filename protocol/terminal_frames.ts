/**
 * Binary codecs for the terminal's two frame kinds.
 *
 * spec: Binary messages > "A terminal output frame (kind 4) is the server's: a little-endian u16
 * terminal id, a u32 sequence, then the shell's own bytes" and "A terminal input frame (kind 5)
 * is a client's: the same id and then the keystrokes".
 */

/** The first byte of a server → client terminal output frame. */
export const TERMINAL_OUTPUT_KIND = 4;
/** The first byte of a client → server terminal input frame. */
export const TERMINAL_INPUT_KIND = 5;
/** Bytes before the payload of a kind-4 frame: kind, u16 id, u32 seq. */
export const OUTPUT_HEADER_BYTES = 7;
/** Bytes before the payload of a kind-5 frame: kind, u16 id. */
export const INPUT_HEADER_BYTES = 3;

/** A decoded kind-4 frame; `bytes` is a view into the frame, not a copy. */
export interface TerminalOutputFrame {
  id: number;
  seq: number;
  bytes: Uint8Array;
}

/** A decoded kind-5 frame; `bytes` is a view into the frame, not a copy. */
export interface TerminalInputFrame {
  id: number;
  bytes: Uint8Array;
}

/** A decode either yields the frame or a sentence saying why it was refused. */
export type Decoded<T> = { ok: true; frame: T } | { ok: false; why: string };

function checkId(id: number): void {
  if (!Number.isInteger(id) || id < 0 || id > 0xffff) {
    throw new RangeError(`terminal frame: id ${id} is not a u16`);
  }
}

/**
 * Encodes a kind-4 output frame. Throws a RangeError when `id` is not a u16 or `seq` not a u32,
 * because a wrapped header would address the wrong terminal or sequence.
 */
export function encodeTerminalOutput(id: number, seq: number, bytes: Uint8Array): Uint8Array {
  const frame = new Uint8Array(OUTPUT_HEADER_BYTES + bytes.length);
  frame.set(bytes, OUTPUT_HEADER_BYTES);
  return writeTerminalOutputHeader(frame, id, seq);
}

/**
 * Writes a kind-4 header into `frame`'s first OUTPUT_HEADER_BYTES, whose payload already follows
 * them, and returns `frame`: a chunk read with room left before it is framed in place rather than
 * copied (the terminal's 64 KiB flood chunks). Throws as encodeTerminalOutput.
 */
export function writeTerminalOutputHeader(frame: Uint8Array, id: number, seq: number): Uint8Array {
  checkId(id);
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xffffffff) {
    throw new RangeError(`terminal frame: seq ${seq} is not a u32`);
  }
  const view = new DataView(frame.buffer, frame.byteOffset, OUTPUT_HEADER_BYTES);
  frame[0] = TERMINAL_OUTPUT_KIND;
  view.setUint16(1, id, true);
  view.setUint32(3, seq, true);
  return frame;
}

/** Decodes a kind-4 frame; refuses another kind or a header shorter than seven bytes. */
export function decodeTerminalOutput(frame: Uint8Array): Decoded<TerminalOutputFrame> {
  if (frame.length < 1 || frame[0] !== TERMINAL_OUTPUT_KIND) {
    return { ok: false, why: `terminal output frame: kind ${frame[0]} is not 4` };
  }
  if (frame.length < OUTPUT_HEADER_BYTES) {
    return {
      ok: false,
      why: `terminal output frame: ${frame.length} bytes is shorter than its 7-byte header`,
    };
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return {
    ok: true,
    frame: {
      id: view.getUint16(1, true),
      seq: view.getUint32(3, true),
      bytes: frame.subarray(OUTPUT_HEADER_BYTES),
    },
  };
}

/** Encodes a kind-5 input frame. Throws a RangeError when `id` is not a u16. */
export function encodeTerminalInput(id: number, bytes: Uint8Array): Uint8Array {
  checkId(id);
  const frame = new Uint8Array(INPUT_HEADER_BYTES + bytes.length);
  frame[0] = TERMINAL_INPUT_KIND;
  new DataView(frame.buffer).setUint16(1, id, true);
  frame.set(bytes, INPUT_HEADER_BYTES);
  return frame;
}

/** Decodes a kind-5 frame; refuses another kind or a header shorter than three bytes. */
export function decodeTerminalInput(frame: Uint8Array): Decoded<TerminalInputFrame> {
  if (frame.length < 1 || frame[0] !== TERMINAL_INPUT_KIND) {
    return { ok: false, why: `terminal input frame: kind ${frame[0]} is not 5` };
  }
  if (frame.length < INPUT_HEADER_BYTES) {
    return {
      ok: false,
      why: `terminal input frame: ${frame.length} bytes is shorter than its 3-byte header`,
    };
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return {
    ok: true,
    frame: { id: view.getUint16(1, true), bytes: frame.subarray(INPUT_HEADER_BYTES) },
  };
}
