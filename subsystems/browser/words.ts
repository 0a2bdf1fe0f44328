import { type Host, ownWords } from "../../server/subsystem.ts";

/**
 * Why the browser failed, in forge's words: the launcher's and the profile's own sentences as
 * they stand; Chromium's, CDP's or the engine's messages go to the log with their cause.
 */
export function browserWords(err: unknown, log: Host["log"]): string {
  return ownWords(err, {
    log,
    event: "browser_failed",
    fallback: "Chromium did not come up or stopped answering; the log has the cause",
  });
}
