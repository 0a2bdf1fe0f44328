import type { AskToolCall, PermissionRequest, QuestionRequest } from "../../../protocol/mod.ts";
import type { CanUseToolRequest, JsonObject, JsonValue } from "../claude/mod.ts";
import { isJsonObject } from "../claude/mod.ts";

/**
 * The wire shapes of a parked ask, the original's: a permission request's ToolCall and options,
 * and one QuestionRequest per AskUserQuestion question. Pure: builds values, holds nothing.
 */

/** The tool a permission request names, as the original's ToolCall. */
export function toolCall(req: CanUseToolRequest): AskToolCall {
  const raw = req.raw;
  return {
    tool_call_id: req.tool_use_id,
    title: title(req),
    kind: toolKind(req.tool_name),
    status: "pending",
    content: [],
    raw_input: req.input,
    // The original's ToolCall carries these as null while the call waits.
    raw_output: null,
    output_metadata: null,
    task_metadata: null,
    locations: locations(req.input),
    meta: { tool_name: req.tool_name, agent_id: str(raw.agent_id) },
  };
}

/** Tools whose input a person may edit before allowing the call (`allow_with_edits`). */
const EDITABLE = new Set(["Bash", "Edit", "Write", "MultiEdit", "NotebookEdit"]);

/**
 * The original's PermissionRequest: the call, the offered options and the CLI's display words.
 * Options: `allow_once`, one `allow_always_<i>` per permission suggestion the CLI sent (its own
 * update, unchanged), `allow_with_edits` for an editable tool, `deny`, and `tell_claude` (notes,
 * then deny).
 */
export function permissionRequest(req: CanUseToolRequest): PermissionRequest {
  const raw = req.raw;
  const options: PermissionRequest["options"] = [{
    option_id: "allow_once",
    name: "Allow",
    kind: "allow",
    action: { kind: "allow" },
  }];
  const suggestions = Array.isArray(raw.permission_suggestions) ? raw.permission_suggestions : [];
  suggestions.forEach((s, i) => {
    // A suggestion is an object (the CLI's PermissionUpdate); anything else could not be sent back.
    if (!isJsonObject(s)) return;
    options.push({
      option_id: `allow_always_${i}`,
      name: describeSuggestion(s),
      kind: "allow",
      action: { kind: "allow_with_updates", updates: [s] },
    });
  });
  if (EDITABLE.has(req.tool_name)) {
    options.push({
      option_id: "allow_with_edits",
      name: "Allow with edits",
      kind: "edit",
      action: { kind: "allow_with_input" },
    });
  }
  options.push(
    { option_id: "deny", name: "Deny", kind: "deny", action: { kind: "deny" } },
    {
      option_id: "tell_claude",
      name: "Tell Claude what to do instead",
      kind: "notes",
      action: { kind: "deny" },
    },
  );
  return {
    tool_call: toolCall(req),
    options,
    display: {
      title: str(raw.title),
      display_name: str(raw.display_name),
      description: str(raw.description),
      decision_reason: str(raw.decision_reason),
      blocked_path: str(raw.blocked_path),
    },
  };
}

/** One AskUserQuestion question as the original's QuestionRequest; option ids are `opt_<j>`. */
export function questionRequest(
  req: CanUseToolRequest,
  question: JsonObject,
  index: number,
  total: number,
): QuestionRequest {
  const options = Array.isArray(question.options) ? question.options : [];
  return {
    tool_call: toolCall(req),
    prompt: {
      question: String(question.question ?? ""),
      header: String(question.header ?? ""),
      multi_select: question.multiSelect === true,
      options: options.map((o, j) => {
        const opt = (o && typeof o === "object" && !Array.isArray(o) ? o : {}) as JsonObject;
        return {
          option_id: `opt_${j}`,
          label: String(opt.label ?? ""),
          description: str(opt.description),
          preview: str(opt.preview),
          recommended: false,
        };
      }),
    },
    question_index: index,
    total_questions: total,
  };
}

function describeSuggestion(s: JsonValue): string {
  const o = (s && typeof s === "object" && !Array.isArray(s) ? s : {}) as JsonObject;
  if (o.type === "addRules" && Array.isArray(o.rules)) {
    const rules = o.rules.map((r) => {
      const rule = (r ?? {}) as JsonObject;
      return rule.ruleContent ? `${rule.toolName}(${rule.ruleContent})` : String(rule.toolName);
    });
    return `Always allow ${rules.join(", ")}`;
  }
  if (o.type === "addDirectories" && Array.isArray(o.directories)) {
    return `Always allow access to ${o.directories.join(", ")}`;
  }
  if (o.type === "setMode") return `Switch to ${o.mode} mode`;
  return `Always allow (${String(o.type ?? "rule")})`;
}

function title(req: CanUseToolRequest): string {
  const raw = req.raw;
  if (typeof raw.title === "string" && raw.title) return raw.title;
  const input = req.input;
  const detail = input.command ?? input.file_path ?? input.path ?? input.url ?? input.pattern ??
    raw.description;
  return typeof detail === "string" && detail ? `${req.tool_name}: ${detail}` : req.tool_name;
}

/** The ACP-style kind a client draws an icon from. */
function toolKind(name: string): string {
  switch (name) {
    case "Bash":
      return "execute";
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      return "edit";
    case "Read":
      return "read";
    case "Grep":
    case "Glob":
      return "search";
    case "WebFetch":
    case "WebSearch":
      return "fetch";
    default:
      return "other";
  }
}

function locations(input: JsonObject): AskToolCall["locations"] {
  const out: AskToolCall["locations"] = [];
  for (const field of ["file_path", "notebook_path", "path"]) {
    if (typeof input[field] === "string") out.push({ path: input[field] as string });
  }
  return out;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}
