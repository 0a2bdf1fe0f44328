import { z } from "zod";
import { describeIssues, TaskStatus } from "../../protocol/mod.ts";
import {
  defineTool,
  type ToolCall,
  type ToolHandler,
  toolHandlers,
  type ToolResult,
} from "../subsystem.ts";
import type { Board } from "./board.ts";
import { BoardError, type TaskPatch } from "./tasks.ts";

// forge's `tasks` and `cron` tool families, named as the original forge names them: on the
// caller's own project, for any seat. Inputs are strict (`additionalProperties: false`); a field
// that does not parse is the bridge's error naming it, and a value the board refuses is answered
// here in words naming the field, as an error result. Successes answer pretty-printed JSON.

const text = z.string();
const Estimate = z.object({
  secs: z.number().int().nonnegative().optional().describe("seconds of work expected"),
  words: z.string().optional().describe("the estimate in words"),
}).strict();

const TaskFields = {
  active_form: text.nullable().optional().describe(
    "the present-continuous form shown while it runs",
  ),
  detail: text.nullable().optional(),
  status: TaskStatus.optional(),
  owner: text.nullable().optional().describe("the owning seat's label (`lead` or a worker's)"),
  parent: text.nullable().optional().describe("the id of the epic this row belongs to"),
  artifact: text.nullable().optional().describe("what the work produced: a path, a PR, a branch"),
  estimate: Estimate.nullable().optional(),
  verify: z.enum(["user", "none"]).optional().describe(
    "`user`: completing the row waits for a person's verdict",
  ),
  question: text.optional().describe("with status `waiting`: the question a person must answer"),
};

const CreateInput = z.object({ subject: text, ...TaskFields }).strict();
const UpdateInput = z.object({ id: text, subject: text.optional(), ...TaskFields }).strict();
const ListInput = z.object({
  owner: text.optional(),
  parent: text.optional(),
  status: TaskStatus.optional(),
}).strict();
const IdInput = z.object({ id: text }).strict();
const CronCreateInput = z.object({
  prompt: text.describe("the words delivered to the project's agent when it fires"),
  schedule: text.optional().describe("a 5-field cron expression in the host's local time"),
  run_once_at: text.optional().describe("one RFC 3339 instant, for a schedule that fires once"),
  description: text.optional().describe("a short name the board and the conversation show"),
}).strict();

const both = ["lead", "worker"] as const;

/** The tools the board area declares. */
export const BOARD_TOOLS = [
  defineTool({
    name: "tasks__create",
    family: "tasks",
    description: "Create a row on your project's task board. Answers the stored task.",
    input: CreateInput,
    roles: both,
  }),
  defineTool({
    name: "tasks__update",
    family: "tasks",
    description:
      "Update a task on your project's board: any field, or its status (pending, in_progress, " +
      "waiting, completed, failed, canceled). Move to `waiting` with a `question` to ask a person; " +
      "completing a `verify: user` row waits for their verdict. Answers the updated task.",
    input: UpdateInput,
    roles: both,
  }),
  defineTool({
    name: "tasks__list",
    family: "tasks",
    description: "List your project's tasks in board order, optionally by owner, parent or status.",
    input: ListInput,
    roles: both,
    readOnly: true,
  }),
  defineTool({
    name: "tasks__delete",
    family: "tasks",
    description: "Delete a task and every task under it.",
    input: IdInput,
    roles: both,
  }),
  defineTool({
    name: "cron__create",
    family: "cron",
    description:
      "Schedule a prompt into your project's agent: exactly one of `schedule` (5-field cron, host " +
      "local time) or `run_once_at` (RFC 3339). Schedules persist across restarts, wake a sleeping " +
      "agent, and a one-shot is removed once it fires; a fire missed while forge was down runs once.",
    input: CronCreateInput,
    roles: both,
  }),
  defineTool({
    name: "cron__list",
    family: "cron",
    description: "List your project's schedules with their next fire.",
    input: z.object({}).strict(),
    roles: both,
    readOnly: true,
  }),
  defineTool({
    name: "cron__delete",
    family: "cron",
    description: "Delete one of your project's schedules by id.",
    input: IdInput,
    roles: both,
  }),
] as const;

const json = (value: unknown): ToolResult => ({ text: JSON.stringify(value, null, 2) });

/** One handler per declared tool, each on the calling seat's own project. */
export function boardTools(board: Board): Record<string, ToolHandler> {
  // A value the board refuses is the tool's error result, in the board's words.
  const on =
    <I>(fn: (input: I, call: ToolCall) => Promise<ToolResult>) =>
    async (input: I, call: ToolCall): Promise<ToolResult> => {
      try {
        return await fn(input, call);
      } catch (err) {
        if (err instanceof BoardError) return { text: err.message, isError: true };
        if (err instanceof z.ZodError) return { text: describeIssues(err), isError: true };
        throw err;
      }
    };
  const project = (call: ToolCall) => ({ org: call.seat.slot.org, name: call.seat.slot.project });
  const now = () => board.clock.now();
  return toolHandlers(BOARD_TOOLS)({
    tasks__create: on(async (input, call) => {
      const t = await board.change(
        project(call),
        (l) => l.create(toPatch(input), now(), call.seat.slot.label),
      );
      return json(t);
    }),
    tasks__update: on(async ({ id, ...rest }, call) => {
      const t = await board.change(
        project(call),
        (l) => l.update(id, toPatch(rest), now(), call.seat.slot.label),
      );
      return json(t);
    }),
    tasks__list: on(async (f, call) => {
      const all = await board.tasks(project(call));
      return json(all.filter((t) =>
        (f.owner === undefined || t.owner === f.owner) &&
        (f.parent === undefined || t.parent === f.parent) &&
        (f.status === undefined || t.status === f.status)
      ));
    }),
    tasks__delete: on(async ({ id }, call) => {
      const removed = await board.change(project(call), (l) => l.delete(id));
      return json({ status: "deleted", removed: removed[0], children_removed: removed.length - 1 });
    }),
    cron__create: on(async (input, call) => {
      const p = project(call);
      return json(await board.crons.create(p.org, p.name, call.seat.slot.label, input));
    }),
    cron__list: on((_i, call) => {
      const p = project(call);
      return Promise.resolve(json(board.crons.list(p.org, p.name)));
    }),
    cron__delete: on(async ({ id }, call) => {
      const p = project(call);
      const gone = await board.crons.delete(p.org, p.name, id);
      return json({ status: "deleted", removed: gone });
    }),
  });
}

function toPatch(input: Omit<z.infer<typeof UpdateInput>, "id">): TaskPatch {
  const { estimate, ...rest } = input;
  const patch: TaskPatch = { ...rest };
  if (estimate !== undefined) {
    patch.estimate = estimate === null
      ? null
      : { secs: estimate.secs ?? null, words: estimate.words ?? null };
  }
  return patch;
}
