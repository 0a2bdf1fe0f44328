import { z } from "zod";
import { Slot, slotName } from "./slot.ts";

/** The five keyless subjects. spec: Subjects ("there are six": these plus a session). */
export const NAMED_SUBJECTS = ["home", "board", "usage", "dictate_models", "extensions"] as const;
export type NamedSubject = typeof NAMED_SUBJECTS[number];

/** `what` of subscribe/unsubscribe and `subject` of a snapshot: externally tagged, snake_case. */
export const Subject = z.union([
  z.enum(NAMED_SUBJECTS),
  z.object({ session: Slot }).strict(),
]);
export type Subject = z.infer<typeof Subject>;

/** A stable key for counting subscriptions: `home`, `session:org/project/label`. */
export function subjectKey(subject: Subject): string {
  return typeof subject === "string" ? subject : `session:${slotName(subject.session)}`;
}
