import { createHash } from "node:crypto";

/** 16 hex digits of a SHA-256 of the raw file text. spec: The effective config > fingerprint. */
export function fingerprint(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
