import type { Slot } from "../../protocol/mod.ts";

/** A fresh message id: `m-` and 8 hex digits. */
export function messageId(): string {
  return `m-${crypto.randomUUID().replaceAll("-", "").slice(0, 8)}`;
}

/** How a seat signs its messages: its project for a lead, `project/label` for a worker. */
export function senderName(slot: Slot): string {
  return slot.label === "lead" ? slot.project : `${slot.project}/${slot.label}`;
}
