import type { Host } from "../../server/subsystem.ts";
import type { BrowserHost } from "./host.ts";
import type { Surfaces } from "./surface.ts";

/**
 * Page audio (spec: binary kind 2). Not built in this forge yet: no PCM is sent, and every host
 * says so in its own start record and in `audio` of the subsystem's state record, rather than
 * silently sending nothing (issue 15 §6).
 */
export function audioFor(
  host: Host,
  browser: BrowserHost,
  _surfaces: Surfaces,
): Promise<{ env: Record<string, string>; note: string | null }> {
  const note = "page audio is not built in this forge: the page's sound is not sent (kind 2)";
  host.log.info("browser_audio_off", { profile: browser.key, why: note });
  return Promise.resolve({ env: {}, note });
}
