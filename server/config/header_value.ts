/**
 * Whether a credential can ride an HTTP header as forge sends it. A header value cannot hold a
 * line break, a NUL or another control character (RFC 9110 §5.5), and Deno's `Headers` throws on
 * one with the whole value in its message: a token pasted with a line break in its middle would
 * put the token in that error, and so in whatever carried the error on. Such a value is refused
 * where it enters (the loader, and so a settings save), named by its key, never echoed.
 *
 * A credential is plain ASCII for every provider forge serves, so a character outside it (a
 * typographic quote, a non-breaking space a paste carried) is refused too: a header could carry
 * some of them, but never as the credential meant.
 */

/** The whitespace `Headers` strips from a value's ends before it checks it (Fetch: normalize). */
const ENDS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * What in `value` a header cannot carry, as the rest of a sentence about its key (`holds a line
 * break ...`), naming no character of the value; null when a header carries it. Whitespace at
 * either end is not counted: it is stripped before the value is sent.
 */
export function headerValueFault(value: string): string | null {
  const codes = [...value.replace(ENDS, "")].map((c) => c.codePointAt(0)!);
  if (codes.some((c) => c === 0x0a || c === 0x0d)) {
    return "holds a line break inside it, which an HTTP header cannot carry; write it on one line";
  }
  if (codes.includes(0)) return "holds a NUL character, which an HTTP header cannot carry";
  // Tab and printable ASCII are what a header value may hold; 0x7f is DEL.
  if (codes.some((c) => (c < 0x20 && c !== 0x09) || c === 0x7f)) {
    return "holds a control character, which an HTTP header cannot carry";
  }
  if (codes.some((c) => c > 0x7e)) {
    return "holds a character outside ASCII (a typographic quote or a non-breaking space from " +
      "a paste, say); a credential is plain ASCII";
  }
  return null;
}
