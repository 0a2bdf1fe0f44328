import { z } from "zod";
import { Slot, WrappedPrompt } from "../../protocol/mod.ts";

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
