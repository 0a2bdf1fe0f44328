import {
  describeIssues,
  parseIgnoringUnknownFields,
  type ReplyVerb,
  VERB_REPLIES,
  type Wire,
} from "../../protocol/mod.ts";
import type { z } from "zod";
import { ForgeRefusal, OffSchema } from "./errors.ts";

// spec: browser_tabs, browser_view, terminal_view ("a refusal answers {"ok": false, "why"} in the
// reply when the verb carried reply_to"), and commit_diff. The client verbs that answer through a
// reply are read against protocol/'s VERB_REPLIES, keyed by the verb's kind.

/** What a reply verb answers once forge took it: its schema's `{"ok": true, ...}` arm. */
export type VerbReplyOf<K extends ReplyVerb> = Extract<
  z.infer<(typeof VERB_REPLIES)[K]>,
  { ok: true }
>;

/**
 * Reads a reply's body for the verb `kind`: its answer when the verb's reply schema takes it and
 * says ok, a ForgeRefusal with forge's `why` when it says not, an OffSchema error otherwise.
 */
export function readVerbReply<K extends ReplyVerb>(kind: K, body: Wire): VerbReplyOf<K> {
  const read = parseIgnoringUnknownFields(VERB_REPLIES[kind] as z.ZodType, body);
  if (!read.success) {
    throw new OffSchema(
      `forge's reply to ${kind} is off protocol/'s schema: ${describeIssues(read.error)}`,
    );
  }
  const answer = read.data as { ok: boolean; why?: string };
  if (!answer.ok) throw new ForgeRefusal(kind, answer.why ?? "");
  return answer as VerbReplyOf<K>;
}
