/**
 * What a transcript row becomes on a page. spec: "key is null on every turn of a transcript-
 * derived conversation ... its reader maps user, assistant and system rows and nothing else",
 * and "the frames are the same shape on either side" (Two representations of one conversation).
 *
 * A mapped row is the CLI's own row object, every key it wrote kept, with the frame envelope
 * spelled the way the CLI's stream-json frame for the same message spells it - the CLI writes
 * the two with one uuid, and the live stream forwards its frames untouched:
 * - `sessionId` -> `session_id`, `requestId` -> `request_id`, `toolUseResult` ->
 *   `tool_use_result` (so the tool record bound, which reads `tool_use_result`, applies to a
 *   page's frame as it does to a live one);
 * - `parent_tool_use_id: null` when absent: a session's own transcript holds its main thread
 *   (a subagent writes its own file), and the stream names that thread null.
 * Nothing else is renamed, added or dropped. Rows of other types (attachments, queue
 * operations, api-request records, cost state, ...) are not carried, with one exception:
 *
 * A `queued_command` attachment is a prompt the CLI took in mid-turn (spec: "inside the
 * queued_command block's source_uuid when a mid-turn prompt is delivered as an attachment"): it
 * is the user's row of the conversation, so it becomes the `user` frame it stands for - content
 * the queued prompt, `uuid` its `source_uuid` (the id the prompt was dispatched under, which is
 * what a forged frame for it carries, so the two pair), the `attachment` block kept, and the
 * model-facing `rendered*` copies of the prompt dropped.
 *
 * A line that is not one JSON object (torn, partial, garbled) maps to nothing.
 */
import type { CliFrame } from "../../../protocol/mod.ts";

/** A frame a page carries: a CLI frame, as the live stream carries one. */
export type Frame = CliFrame;
type Json = Frame[string];
type Obj = { [key: string]: Json };

const RENAMED: Record<string, string> = {
  sessionId: "session_id",
  requestId: "request_id",
  toolUseResult: "tool_use_result",
};
const RENDERED = new Set(["rendered", "renderedRole", "renderedInHumanTurn"]);
// A line can only map when one of these occurs in it (the CLI writes compact JSON); the rest are
// never parsed.
const MARKERS = ['"type":"user"', '"type":"assistant"', '"type":"system"', '"queued_command"'];

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a line may map: a cheap text test that spares parsing the rows never carried. */
export function mayMap(text: string): boolean {
  return MARKERS.some((m) => text.includes(m));
}

/** The frame a line maps to, or null (not carried, or not a JSON object). */
export function lineFrame(text: string): Frame | null {
  if (!mayMap(text)) return null;
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    return null; // torn or partial: skipped, not fatal
  }
  return rowFrame(row);
}

/** The frame a parsed row maps to, or null when the row is not carried. */
export function rowFrame(row: unknown): Frame | null {
  if (!isObj(row) || row.isSidechain === true) return null;
  switch (row.type) {
    case "user":
    case "assistant":
      return isObj(row.message) ? envelope(row) : null;
    case "system":
      return typeof row.subtype === "string" ? envelope(row) : null;
    case "attachment":
      return queuedPrompt(row);
    default:
      return null;
  }
}

function envelope(row: Obj): Frame {
  const out: Frame = {};
  for (const [key, value] of Object.entries(row)) {
    if (key !== "__proto__") out[RENAMED[key] ?? key] = value;
  }
  if (!("parent_tool_use_id" in out)) out.parent_tool_use_id = null;
  return out;
}

function queuedPrompt(row: Obj): Frame | null {
  const a = row.attachment;
  if (!isObj(a) || a.type !== "queued_command") return null;
  if (typeof a.prompt !== "string" && !Array.isArray(a.prompt)) return null;
  const kept: Obj = {};
  for (const [key, value] of Object.entries(row)) {
    if (!RENDERED.has(key) && key !== "__proto__") kept[key] = value;
  }
  kept.type = "user";
  kept.message = { role: "user", content: a.prompt };
  if (typeof a.source_uuid === "string") kept.uuid = a.source_uuid;
  return envelope(kept);
}

/** A frame's `message.content` as blocks (a string content is one text block), or []. */
export function blocks(frame: Frame): Obj[] {
  const message = frame.message;
  if (!isObj(message)) return [];
  const content = message.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
}

/** The first text of a frame's content (a string content, or its first text block), or null. */
export function firstText(frame: Frame): string | null {
  for (const b of blocks(frame)) if (b.type === "text" && typeof b.text === "string") return b.text;
  return null;
}
