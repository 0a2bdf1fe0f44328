import { createHash } from "node:crypto";

/**
 * The fingerprint of a config file's raw text: the first 16 lowercase hex digits of its
 * SHA-256. A save carries the fingerprint its page loaded from, and any change to the raw
 * text (a comment, a blank line) changes it, so a moved file refuses the save as `stale`.
 * spec: Editing the config ("fingerprint is the one the page loaded").
 */
export function fingerprint(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}
