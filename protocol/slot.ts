import { z } from "zod";

/** A seat's name: `<org>/<project>/<label>`. spec: Subjects (field order org, project, label). */
export const Slot = z.object({
  org: z.string().min(1),
  project: z.string().min(1),
  label: z.string().min(1),
}).strict();
export type Slot = z.infer<typeof Slot>;

/** The display form, for logs and map keys only; never parsed back off the wire. */
export function slotName(slot: Slot): string {
  return `${slot.org}/${slot.project}/${slot.label}`;
}

/** Parses `org/project/label` (the protocol client's argument form). */
export function parseSlotName(text: string): Slot | null {
  const parts = text.split("/");
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null;
  return { org: parts[0], project: parts[1], label: parts[2] };
}

export function sameSlot(a: Slot, b: Slot): boolean {
  return a.org === b.org && a.project === b.project && a.label === b.label;
}
