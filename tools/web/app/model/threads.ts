import type { ReviewThread } from "../../../../protocol/mod.ts";

/**
 * Review threads as the review commands write them (protocol/review.ts: an anchor on a line, the
 * comments, a status). The anchor's `content_hash` is the line's own hash in the wire's
 * convention: the first 64 bits of its UTF-8 bytes' SHA-256, as decimal digits (spec:
 * document_read > content_hash). Pure, apart from Web Crypto.
 */
export type Thread = ReviewThread;

export async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new DataView(digest).getBigUint64(0, false).toString(10);
}

/**
 * A new thread on one line of a file (its new side unless `side` says old), its context the
 * captured lines, the line itself first.
 */
export async function newThread(
  anchor: {
    path: string;
    side?: "old" | "new";
    line: number;
    text: string;
    context: string[];
    baseRef: string;
  },
  words: string,
  now = new Date(),
): Promise<Thread> {
  const at = now.toISOString();
  return {
    id: crypto.randomUUID(),
    anchor: {
      path: anchor.path,
      side: anchor.side ?? "new",
      line: anchor.line,
      content_hash: await contentHash(anchor.text),
      context: anchor.context,
      base_ref: anchor.baseRef,
    },
    comments: [{ author: "user", text: words, at, review_id: null }],
    status: "open",
    created_at: at,
    updated_at: at,
    commit: null,
  };
}

/** The same thread with the reader's reply appended. */
export function withReply(thread: Thread, words: string, now = new Date()): Thread {
  const at = now.toISOString();
  return {
    ...thread,
    comments: [...thread.comments, { author: "user", text: words, at, review_id: null }],
    updated_at: at,
  };
}
