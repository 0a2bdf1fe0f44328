/**
 * The content hash a document and an anchor cross under (spec: server message `document_read`,
 * "the document's own hash as DECIMAL DIGITS"): the first 64 bits of the SHA-256 of the bytes,
 * read big-endian as an unsigned integer, written as decimal digits in a JSON string (a u64 does
 * not fit a JSON number a JavaScript client can hold). SHA-256 is stable across platforms and
 * versions and runs natively (Web Crypto).
 */

/** The decimal-digit 64-bit content hash of `data` (a string hashes as its UTF-8 bytes). */
export async function contentHash(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return new DataView(digest).getBigUint64(0, false).toString(10);
}
