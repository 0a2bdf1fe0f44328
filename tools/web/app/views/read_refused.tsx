import type { HeldSubject } from "../net/client.ts";
import { Said } from "../draw/said.tsx";
import { useApp } from "./use.ts";

/**
 * A page whose subject the server would not read: its words in place of "Reading…", which would
 * wait for a snapshot that never comes. The server's words lead with the subject's name (spec:
 * Subjects, a refused subscribe); the page's own name stands in for it. Null while nothing was
 * refused.
 */
export function ReadRefused(props: { subject: HeldSubject; page: string; testId: string }) {
  const why = useApp().refusedReads[props.subject];
  if (!why) return null;
  return (
    <p class="notice" role="status" data-testid={props.testId}>
      No {props.page}: <Said text={why.replace(`${props.subject}: `, "")} />
    </p>
  );
}
