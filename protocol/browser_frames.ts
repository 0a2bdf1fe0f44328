/**
 * Binary codecs for the browser's two server-only kinds, and the shape of one browser_input
 * gesture.
 *
 * spec: Binary messages > "1 is a browser frame" (the 19-byte header: kind, u16 profile, u16 tab,
 * u32 seq, u16 width, u16 height, u8 format, u8 key, u16 page width, u16 page height, then the
 * host's encoded bytes) and "2 is the page's own sound" (kind, u16 profile, u16 tab, u32 seq,
 * u32 rate, u8 channels, then i16 little-endian samples). All integers little-endian.
 */
import { z } from "zod";

/** The first byte of a browser frame. */
export const BROWSER_FRAME_KIND = 1;
/** The first byte of a browser audio packet. */
export const BROWSER_AUDIO_KIND = 2;
/** Bytes before a kind-1 frame's pixels. */
export const BROWSER_FRAME_HEADER_BYTES = 19;
/** Bytes before a kind-2 packet's samples. */
export const BROWSER_AUDIO_HEADER_BYTES = 14;
/** The only pixel format the host encodes. */
export const BROWSER_FORMAT_WEBP = 1;

/** A kind-1 frame's header fields; `bytes` is the host's encoding, never re-encoded. */
export interface BrowserFrame {
  profile: number;
  tab: number;
  seq: number;
  width: number;
  height: number;
  format: number;
  key: boolean;
  pageWidth: number;
  pageHeight: number;
  bytes: Uint8Array;
}

/** A kind-2 packet's fields. */
export interface BrowserAudio {
  profile: number;
  tab: number;
  seq: number;
  rate: number;
  channels: number;
  samples: Uint8Array;
}

function u16(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff) {
    throw new RangeError(`browser frame: ${name} ${n} is not a u16`);
  }
  return n;
}

function u32(name: string, n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    throw new RangeError(`browser frame: ${name} ${n} is not a u32`);
  }
  return n;
}

/** Encodes a kind-1 frame. Throws a RangeError when a header field does not fit its width. */
export function encodeBrowserFrame(f: BrowserFrame): Uint8Array {
  const out = new Uint8Array(BROWSER_FRAME_HEADER_BYTES + f.bytes.length);
  const v = new DataView(out.buffer);
  out[0] = BROWSER_FRAME_KIND;
  v.setUint16(1, u16("profile", f.profile), true);
  v.setUint16(3, u16("tab", f.tab), true);
  v.setUint32(5, u32("seq", f.seq), true);
  v.setUint16(9, u16("width", f.width), true);
  v.setUint16(11, u16("height", f.height), true);
  out[13] = f.format;
  out[14] = f.key ? 1 : 0;
  v.setUint16(15, u16("page width", f.pageWidth), true);
  v.setUint16(17, u16("page height", f.pageHeight), true);
  out.set(f.bytes, BROWSER_FRAME_HEADER_BYTES);
  return out;
}

/** Decodes a kind-1 frame, or says why it is not one. `bytes` is a view, not a copy. */
export function decodeBrowserFrame(
  frame: Uint8Array,
): { ok: true; frame: BrowserFrame } | { ok: false; why: string } {
  if (frame[0] !== BROWSER_FRAME_KIND) {
    return { ok: false, why: `browser frame: kind ${frame[0]} is not 1` };
  }
  if (frame.length < BROWSER_FRAME_HEADER_BYTES) {
    return { ok: false, why: `browser frame: ${frame.length} bytes is shorter than its header` };
  }
  const v = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return {
    ok: true,
    frame: {
      profile: v.getUint16(1, true),
      tab: v.getUint16(3, true),
      seq: v.getUint32(5, true),
      width: v.getUint16(9, true),
      height: v.getUint16(11, true),
      format: frame[13],
      key: frame[14] === 1,
      pageWidth: v.getUint16(15, true),
      pageHeight: v.getUint16(17, true),
      bytes: frame.subarray(BROWSER_FRAME_HEADER_BYTES),
    },
  };
}

/** Encodes a kind-2 packet. Throws a RangeError when a header field does not fit its width. */
export function encodeBrowserAudio(a: BrowserAudio): Uint8Array {
  const out = new Uint8Array(BROWSER_AUDIO_HEADER_BYTES + a.samples.length);
  const v = new DataView(out.buffer);
  out[0] = BROWSER_AUDIO_KIND;
  v.setUint16(1, u16("profile", a.profile), true);
  v.setUint16(3, u16("tab", a.tab), true);
  v.setUint32(5, u32("seq", a.seq), true);
  v.setUint32(9, u32("rate", a.rate), true);
  out[13] = a.channels;
  out.set(a.samples, BROWSER_AUDIO_HEADER_BYTES);
  return out;
}

/** Decodes a kind-2 packet, or says why it is not one. `samples` is a view, not a copy. */
export function decodeBrowserAudio(
  frame: Uint8Array,
): { ok: true; audio: BrowserAudio } | { ok: false; why: string } {
  if (frame[0] !== BROWSER_AUDIO_KIND) {
    return { ok: false, why: `browser audio: kind ${frame[0]} is not 2` };
  }
  if (
    frame.length < BROWSER_AUDIO_HEADER_BYTES || (frame.length - BROWSER_AUDIO_HEADER_BYTES) % 2
  ) {
    return {
      ok: false,
      why: `browser audio: ${frame.length} bytes is not a header and i16 samples`,
    };
  }
  const v = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  return {
    ok: true,
    audio: {
      profile: v.getUint16(1, true),
      tab: v.getUint16(3, true),
      seq: v.getUint32(5, true),
      rate: v.getUint32(9, true),
      channels: frame[13],
      samples: frame.subarray(BROWSER_AUDIO_HEADER_BYTES),
    },
  };
}

const Modifiers = z.array(z.enum(["alt", "ctrl", "meta", "shift"])).optional();

/**
 * One gesture of `browser_input {seq, event}`. The spec words the kinds ("a press, a wheel, a
 * key or inserted text, with the modifier keys held", plus the pointer move it calls a stream)
 * and leaves the fields open; the catalogue is silent, so these are forge's own. Coordinates are
 * in the page's viewport (the frame header's page width/height).
 */
export const BrowserGesture = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("press"),
    x: z.number(),
    y: z.number(),
    button: z.enum(["left", "middle", "right"]).optional(),
    clicks: z.number().int().min(1).max(3).optional(),
    modifiers: Modifiers,
  }).strict(),
  z.object({ type: z.literal("move"), x: z.number(), y: z.number(), modifiers: Modifiers })
    .strict(),
  z.object({
    type: z.literal("wheel"),
    x: z.number(),
    y: z.number(),
    dx: z.number(),
    dy: z.number(),
    modifiers: Modifiers,
  }).strict(),
  z.object({ type: z.literal("key"), key: z.string().min(1), modifiers: Modifiers }).strict(),
  z.object({ type: z.literal("text"), text: z.string() }).strict(),
]);
export type BrowserGesture = z.infer<typeof BrowserGesture>;
