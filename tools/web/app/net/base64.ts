/** Base64 both ways for the bytes that cross as JSON (documents, chosen files, downloads). */

/** The bytes of a base64 string. */
export function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

/** A base64 string of `bytes`, built in slices so a large file does not overflow the stack. */
export function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}
