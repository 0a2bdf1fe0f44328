import type { CliFrame } from "../../../protocol/mod.ts";

/** The keys of a `tool_use_result` a client draws: a mutation's patch and outside-edit mark, a
 * question's answers and notes. spec: session > conversation, the tool record bound. */
const DRAWN = ["structuredPatch", "userModified", "answers", "annotations", "filePath", "type"];

/**
 * Bounds a frame's structured tool record (spec: "Every path to a client carries the same bound
 * on a frame's structured record"): a `tool_use_result` over `capBytes` is reduced to the keys a
 * client draws, and becomes `{omitted, bytes}` only when that is still over. The frame is
 * returned unchanged when nothing is over; the transcript keeps the record whole either way.
 */
export function capToolRecord(frame: CliFrame, capBytes: number): CliFrame {
  const record = frame.tool_use_result;
  if (record === undefined || record === null || typeof record !== "object") return frame;
  const bytes = JSON.stringify(record).length;
  if (bytes <= capBytes) return frame;
  if (!Array.isArray(record)) {
    const reduced: { [key: string]: CliFrame[string] } = {};
    for (const key of DRAWN) if (key in record) reduced[key] = record[key];
    if (JSON.stringify(reduced).length <= capBytes) return { ...frame, tool_use_result: reduced };
  }
  return { ...frame, tool_use_result: { omitted: true, bytes } };
}
