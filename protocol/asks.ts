import { z } from "zod";
import { PermissionAction } from "./command_fields.ts";

// The CLI's own asks as they cross (the original's PermissionRequest, QuestionRequest, ToolCall):
// `permission_request.request`, `question_request.request` and `pending_asks[].request`. Built by
// server/workspace/seats/ask_wire.ts; a client answers with respond_permission or respond_question.

const text = z.string().nullable();

/** The call an ask names, as the original's ToolCall; the outputs are null while it waits. */
export const AskToolCall = z.object({
  tool_call_id: z.string(),
  title: z.string(),
  kind: z.string().describe("read, edit, execute, fetch, search, think or other"),
  status: z.literal("pending"),
  content: z.tuple([]).describe("always empty: a call that waits has produced nothing yet"),
  raw_input: z.json().describe("the call's input as the CLI sent it"),
  raw_output: z.null(),
  output_metadata: z.null(),
  task_metadata: z.null(),
  locations: z.array(z.object({ path: z.string() }).strict()).describe(
    "the paths the input names (its file_path, notebook_path and path)",
  ),
  meta: z.object({ tool_name: z.string(), agent_id: text }).strict(),
}).strict();
export type AskToolCall = z.infer<typeof AskToolCall>;

/** One offered answer to a permission ask; `action` is what choosing it does. */
export const PermissionOption = z.object({
  option_id: z.string(),
  name: z.string(),
  kind: z.enum(["allow", "edit", "deny", "notes"]),
  action: PermissionAction.describe("the PermissionAction respond_permission sends back for it"),
}).strict();

/** `permission_request.request`: the call, the options and the CLI's display words. */
export const PermissionRequest = z.object({
  tool_call: AskToolCall,
  options: z.array(PermissionOption),
  display: z.object({
    title: text,
    display_name: text,
    description: text,
    decision_reason: text,
    blocked_path: text,
  }).strict(),
}).strict();
export type PermissionRequest = z.infer<typeof PermissionRequest>;

/** `question_request.request`: one AskUserQuestion question; option ids are `opt_<j>`. */
export const QuestionRequest = z.object({
  tool_call: AskToolCall,
  prompt: z.object({
    question: z.string(),
    header: z.string(),
    multi_select: z.boolean(),
    options: z.array(
      z.object({
        option_id: z.string(),
        label: z.string(),
        description: text,
        preview: text,
        recommended: z.boolean(),
      }).strict(),
    ),
  }).strict(),
  question_index: z.number().int(),
  total_questions: z.number().int(),
}).strict();
export type QuestionRequest = z.infer<typeof QuestionRequest>;
