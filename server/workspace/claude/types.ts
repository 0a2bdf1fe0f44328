/**
 * Types shared by the `claude` CLI driver: JSON values, stdout frames, permission answers and
 * the process's ending. Field names are the CLI's own (camelCase where the CLI uses it).
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** One stdout line of the CLI: a JSON object with a string `type` (`assistant`, `user`,
 * `system`, `result`, `stream_event`, `command_lifecycle`, `rate_limit_event`, ...). */
export interface CliFrame {
  type: string;
  [key: string]: JsonValue;
}

/** What the driver yields: a frame, or a stdout line that was not a JSON object with a `type`
 * (reported, never fatal). Control frames the driver handles itself are not yielded. */
export type ClaudeEvent =
  | { kind: "frame"; frame: CliFrame }
  | { kind: "bad_line"; line: string; reason: string };

/** The CLI's permission modes (the original forge's PermissionMode). */
export type PermissionMode =
  | "default"
  | "acceptEdits"
  | "plan"
  | "dontAsk"
  | "auto"
  | "bypassPermissions";

/** An inbound `can_use_tool` request, as the CLI sent it. */
export interface CanUseToolRequest {
  /** The control request id the answer must carry. */
  request_id: string;
  tool_name: string;
  tool_use_id: string;
  input: JsonObject;
  /** The whole `request` object, for fields not named here (`permission_suggestions`,
   * `blocked_path`, `decision_reason`, `title`, `display_name`, `description`, `agent_id`). */
  raw: JsonObject;
}

/** The answer to `can_use_tool`; keys are the CLI's camelCase. `updatedInput` is always
 * present on allow (the original input when unchanged); `interrupt` is written only when true. */
export type PermissionDecision =
  | { behavior: "allow"; updatedInput: JsonObject; updatedPermissions?: JsonValue[] }
  | { behavior: "deny"; message: string; interrupt?: boolean };

/** Decides a `can_use_tool`. The signal aborts when the CLI cancels the request
 * (`control_cancel_request`, e.g. after an interrupt) or the process exits. */
export type CanUseToolHandler = (
  req: CanUseToolRequest,
  signal: AbortSignal,
) => Promise<PermissionDecision> | PermissionDecision;

/** Answers any other inbound control request (`hook_callback`, `mcp_message`, ...) with the
 * success payload; throwing answers an error response. */
export type ControlRequestHandler = (
  subtype: string,
  request: JsonObject,
  signal: AbortSignal,
) => Promise<JsonObject> | JsonObject;

/** How the process ended. `stderrTail` is the last bytes of stderr (startup errors such as
 * "Session ID ... is already in use." appear only there). */
export interface ClaudeExit {
  code: number;
  signal: Deno.Signal | null;
  stderrTail: string;
}

/** Whether a value is a JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
