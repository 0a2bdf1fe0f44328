import { z } from "zod";
import { Slot } from "../../protocol/mod.ts";

/**
 * A message one agent sends another, as forge wraps it (catalogue 1.4 WrappedPrompt, the
 * original's shape): the id, the kind, who sent it and the words.
 */
export const WrappedPrompt = z.object({
  id: z.string().min(1),
  kind: z.enum(["message", "delivery_failure_notice", "worker_spawn_failed_notice"]),
  sender_name: z.string(),
  sender_org: z.string(),
  body: z.string(),
}).strict();
export type WrappedPrompt = z.infer<typeof WrappedPrompt>;

/** `deliver_peer_prompt`'s fields (catalogue 1.2 row 40). */
export const DeliverPeerPrompt = z.object({
  caller: Slot,
  target_project: z.string().min(1),
  wrapped: WrappedPrompt,
}).strict();

/** A fresh message id: `m-` and 8 hex digits. */
export function messageId(): string {
  return `m-${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
}

/** How a seat signs its messages: its project for a lead, `project/label` for a worker. */
export function senderName(slot: Slot): string {
  return slot.label === "lead" ? slot.project : `${slot.project}/${slot.label}`;
}

/**
 * The user turn a wrapped message becomes: an envelope line the system prompt names as forge's
 * (so the agent reads it as delivered, not typed), then the body.
 */
export function envelopeText(w: WrappedPrompt): string {
  const head = w.kind === "message"
    ? `[Message id=${w.id} from agent '${w.sender_name}' (org '${w.sender_org}')]`
    : `[Notice id=${w.id} from forge about agent '${w.sender_name}' (org '${w.sender_org}')]`;
  return `${head}\n${w.body}`;
}
