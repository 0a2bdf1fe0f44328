import type { CliFrame, SessionUpdate } from "../../../protocol/mod.ts";
import { rowsSince } from "../conversation/mod.ts";
import type { FrameWindow } from "./window.ts";

/**
 * A resumed CLI closes a turn its last run left unanswered with an assistant row of its own
 * ("No response requested."), which it writes to the transcript just before the next prompt's
 * row and never sends on stdout. Reads the rows written since `from` (the transcript's size at
 * the seed) and places the user and assistant rows ahead of the first one the window holds (the
 * prompt forge forged, under the CLI's own uuid) just before it, where the transcript has them.
 * Rows after it are the CLI's own stream and are never placed, so none doubles.
 *
 * Answers true once that held row was found (nothing more can come late), false while the
 * transcript does not carry it yet (ask again at the next read).
 */
export async function placeLateRows(
  window: FrameWindow,
  path: string,
  from: number,
  prepare: (msg: CliFrame) => CliFrame,
  wrap: (msg: CliFrame) => SessionUpdate,
): Promise<boolean> {
  const late: { frame: CliFrame; offset: number }[] = [];
  for (const row of await rowsSince(path, from)) {
    const uuid = row.msg.uuid;
    if (typeof uuid !== "string") continue;
    if (row.msg.type !== "user" && row.msg.type !== "assistant") continue;
    if (window.insertBefore(uuid, late, wrap)) return true;
    late.push({ frame: prepare(row.msg), offset: row.offset });
  }
  return false;
}
