import { Buffer } from "node:buffer";

/**
 * A subject's snapshot data already encoded as JSON text, for a subscribe to send as it is.
 * Built only by {@link encodeSpliced} from a subject's typed snapshot (protocol/snapshots.ts).
 * `T` is the type it was encoded from, so a subject's handler returning it is still checked
 * against that subject's schema type.
 */
export class EncodedData<T = unknown> {
  /** Never set: carries `T`, so text encoded from one subject's data is not another's. */
  declare readonly of?: T;
  constructor(readonly text: string, readonly bytes: number) {}
}

/** A snapshot's data encoded whole. */
export function encodeData<T extends object>(data: T): EncodedData<T> {
  const text = JSON.stringify(data);
  return new EncodedData<T>(text, utf8Length(text));
}

/** The text each large part was last encoded to, for as long as the part itself lives. */
const remembered = new WeakMap<object, { text: string; bytes: number }>();
/** Stands in for the part while the rest is encoded; unguessable, so no data can carry it. */
const TOKEN = `\u0000forge-spliced-${crypto.randomUUID()}\u0000`;
const TOKEN_JSON = JSON.stringify(TOKEN);

/**
 * `data` encoded with `data[outer][inner]` spliced in from the text that same object was
 * encoded to before. The part must not change once built: a seat's newest conversation page is
 * such a part (the window hands out the same page object until it moves). Measured:
 * encoding a 40-turn seat's 550 KiB snapshot was a third of a subscribe's CPU; with the
 * page remembered only the few KiB around it are encoded again.
 */
export function encodeSpliced<T extends object>(
  data: T,
  outer: keyof T & string,
  inner: string,
): EncodedData<T> {
  const holder: unknown = data[outer];
  const part = isObject(holder) ? holder[inner] : undefined;
  if (!isObject(holder) || typeof part !== "object" || part === null) return encodeData(data);
  let known = remembered.get(part);
  if (!known) {
    const text = JSON.stringify(part);
    known = { text, bytes: utf8Length(text) };
    remembered.set(part, known);
  }
  const shell = JSON.stringify({ ...data, [outer]: { ...holder, [inner]: TOKEN } });
  const at = shell.indexOf(TOKEN_JSON);
  return new EncodedData<T>(
    shell.slice(0, at) + known.text + shell.slice(at + TOKEN_JSON.length),
    utf8Length(shell) - TOKEN_JSON.length + known.bytes,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * UTF-8 byte length without encoding: what the socket will actually write (a lone surrogate as
 * the 3-byte U+FFFD the encoder writes). Native: a JS loop over a 550 KiB snapshot was 14% of a
 * subscribe's samples.
 */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
