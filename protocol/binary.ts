import { decodeTerminalInput } from "./terminal_frames.ts";

// spec: Binary messages are frames, and a frame's first byte says which kind.

/** The kind tags. Directions: 0 and 5 come from a client; 1, 2, 3 and 4 only from the server. */
export const BinaryKind = {
  dictation: 0,
  browser_frame: 1,
  browser_audio: 2,
  gzip_json: 3,
  terminal_output: 4,
  terminal_input: 5,
} as const;
export type BinaryKind = typeof BinaryKind[keyof typeof BinaryKind];

/** Each kind's direction and layout after the tag byte, all integers little-endian (spec: Binary
 * messages). docs/protocol.md prints these. */
export const BINARY_LAYOUT: Record<keyof typeof BinaryKind, string> = {
  dictation:
    "client -> server: i16 mono samples at 16 kHz, one frame per 20 ms (payload <= 16 KiB)",
  browser_frame:
    "server -> client: u16 profile, u16 tab, u32 seq, u16 width, u16 height, u8 format, u8 key, " +
    "u16 page width, u16 page height, then the host's encoded image (19-byte header)",
  browser_audio:
    "server -> client: u16 profile, u16 tab, u32 seq, u32 rate, u8 channels, then i16 samples",
  gzip_json: "server -> client: one ServerMessage of 64 KiB or more, gzipped (with ?deflate=1)",
  terminal_output: "server -> client: u16 terminal id, u32 seq, then the shell's own bytes",
  terminal_input: "client -> server: u16 terminal id, then the keystrokes",
};

/** Kinds a client may send; every other kind arriving from a client is refused by its tag. */
export const CLIENT_BINARY_KINDS: ReadonlySet<number> = new Set([
  BinaryKind.dictation,
  BinaryKind.terminal_input,
]);

/** A dictation frame's payload bound. spec: "a payload past 16 KiB" is dropped. */
export const MAX_DICTATION_PAYLOAD = 16 * 1024;

/** Why an inbound binary frame was dropped; each becomes one debug record and no answer. */
export type BinaryRefusal =
  | { reason: "empty" }
  | { reason: "wrong_direction"; kind: number }
  | { reason: "unknown_kind"; kind: number }
  | { reason: "short_header"; kind: number; bytes: number }
  | { reason: "oversized"; kind: number; bytes: number };

export type ClientBinary =
  | { kind: typeof BinaryKind.dictation; samples: Uint8Array }
  | { kind: typeof BinaryKind.terminal_input; terminal: number; keys: Uint8Array };

/** Decodes one binary frame from a client, or says why it is refused. Never throws. */
export function decodeClientBinary(bytes: Uint8Array): ClientBinary | BinaryRefusal {
  if (bytes.length === 0) return { reason: "empty" };
  const kind = bytes[0];
  if (!CLIENT_BINARY_KINDS.has(kind)) {
    const known = Object.values(BinaryKind).includes(kind as BinaryKind);
    return known ? { reason: "wrong_direction", kind } : { reason: "unknown_kind", kind };
  }
  if (kind === BinaryKind.dictation) {
    const samples = bytes.subarray(1);
    if (samples.length > MAX_DICTATION_PAYLOAD) {
      return { reason: "oversized", kind, bytes: samples.length };
    }
    if (samples.length % 2 !== 0) return { reason: "short_header", kind, bytes: bytes.length };
    return { kind, samples };
  }
  const input = decodeTerminalInput(bytes);
  if (!input.ok) return { reason: "short_header", kind, bytes: bytes.length };
  return { kind: BinaryKind.terminal_input, terminal: input.frame.id, keys: input.frame.bytes };
}

/** Kind 3: one gzipped ServerMessage behind the tag. */
export function encodeGzipFrame(gzipped: Uint8Array): Uint8Array {
  const out = new Uint8Array(gzipped.length + 1);
  out[0] = BinaryKind.gzip_json;
  out.set(gzipped, 1);
  return out;
}
