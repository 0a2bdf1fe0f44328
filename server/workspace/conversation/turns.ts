/**
 * The fold's turn boundary over transcript frames, and the task endings a turn carries.
 * spec: "where a turn BEGINS is a fact about the session" (Two representations of one
 * conversation); "A turn can carry a frame the CLI did not send".
 *
 * A turn BEGINS at a prompt: a `user` frame that is
 * - not a tool result, not `isMeta`, `isCompactSummary`, `isVisibleInTranscriptOnly` or
 *   `isReplay` (the CLI's own insertions and echoes);
 * - not a queued prompt (a `queued_command` attachment): the CLI takes those inside the running
 *   turn - its own rendering says "within the running turn ... rather than as a separate
 *   conversation turn", and one `result` ends both;
 * - not a task ending, an interrupt marker or a local command's output / caveat, which the CLI
 *   writes as user rows of plain text.
 * A row carrying `turnAttributionKey` (CLI 2.1.332 writes it, equal to the prompt's uuid, on
 * exactly the prompts that start a turn) is a prompt whatever its text says.
 *
 * A turn's PREAMBLE is the run of compaction and meta frames written just above its prompt
 * (`/compact` writes the boundary, the summary and a caveat before the command's own row): they
 * belong to the turn they introduce. The same frames inside a running turn (an automatic
 * compaction) stay where they are.
 *
 * A task ENDING is the `<task-notification>` the CLI writes when a backgrounded task ends, as a
 * user row of its own or, mid-turn, as a queued command. It opens no turn (spec: "a row that
 * opens no turn itself still lands in a later turn than the call it ends").
 */
import { blocks, firstText, type Frame, isObj } from "./rows.ts";

const NOT_PROMPTS = [
  "<task-notification>",
  "[Request interrupted by user",
  "<local-command-stdout>",
  "<local-command-stderr>",
  "<local-command-caveat>",
  "<bash-stdout>",
  "<bash-stderr>",
];
const INSERTED = ["isMeta", "isCompactSummary", "isVisibleInTranscriptOnly", "isReplay"];

/** Whether `f` begins a turn (see the module note). */
export function opensTurn(f: Frame): boolean {
  if (f.type !== "user" || isObj(f.attachment)) return false;
  if (INSERTED.some((k) => f[k] === true)) return false;
  const b = blocks(f);
  if (b.some((x) => x.type === "tool_result")) return false;
  if (typeof f.turnAttributionKey === "string") return true;
  const text = firstText(f);
  if (text === null) return b.length > 0; // an image-only prompt
  return !NOT_PROMPTS.some((p) => text.startsWith(p));
}

/** Whether `f` is a compaction or meta frame, which joins the turn whose prompt follows it. */
export function isPreamble(f: Frame): boolean {
  if (f.type === "system") return f.subtype === "compact_boundary";
  return f.type === "user" && (f.isCompactSummary === true || f.isMeta === true);
}

/** The ids of the tool calls an assistant frame makes. */
export function toolUseIds(f: Frame): string[] {
  if (f.type !== "assistant") return [];
  return blocks(f).flatMap((b) =>
    (b.type === "tool_use" || b.type === "server_tool_use") && typeof b.id === "string"
      ? [b.id]
      : []
  );
}

/** The ids of the calls a user frame's tool results answer. */
export function toolResultIds(f: Frame): string[] {
  if (f.type !== "user") return [];
  return blocks(f).flatMap((b) =>
    b.type === "tool_result" && typeof b.tool_use_id === "string" ? [b.tool_use_id] : []
  );
}

/** The calls whose result says they went on in the background (a Bash `backgroundTaskId`, an
 * async agent's `isAsync`): the calls an ending will name later. */
export function backgroundedCalls(f: Frame): string[] {
  const record = f.tool_use_result;
  if (!isObj(record)) return [];
  const background = typeof record.backgroundTaskId === "string" || record.isAsync === true;
  return background ? toolResultIds(f) : [];
}

/** What a task ending says, read off its `<task-notification>` text. */
export interface TaskEnding {
  tool_use_id: string;
  task_id?: string;
  status?: string;
  output_file?: string;
  summary?: string;
}

function tag(text: string, name: string): string | undefined {
  const open = `<${name}>`;
  const at = text.indexOf(open);
  if (at < 0) return undefined;
  const end = text.indexOf(`</${name}>`, at + open.length);
  return end < 0 ? undefined : text.slice(at + open.length, end);
}

/** The ending `f` carries, or null when `f` is not a task ending naming its call. */
export function taskEnding(f: Frame): TaskEnding | null {
  if (f.type !== "user" || typeof f.turnAttributionKey === "string") return null;
  const text = firstText(f);
  if (text === null || !text.trimStart().startsWith("<task-notification>")) return null;
  const tool_use_id = tag(text, "tool-use-id");
  if (!tool_use_id) return null;
  const out: TaskEnding = { tool_use_id };
  const fields = [["task_id", "task-id"], ["status", "status"], ["output_file", "output-file"], [
    "summary",
    "summary",
  ]] as const;
  for (const [key, name] of fields) {
    const v = tag(text, name);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/**
 * The frame a turn holding a backgrounded call carries for its ending when the ending's row
 * landed in a later turn: the CLI's own `system/task_notification` shape, with no uuid (spec:
 * "The forged frame has no uuid, because the row keeps the id the CLI minted for it").
 */
export function endingFrame(e: TaskEnding, from: Frame): Frame {
  const out: Frame = { type: "system", subtype: "task_notification", ...e };
  if (from.session_id !== undefined) out.session_id = from.session_id;
  return out;
}
