import { z } from "zod";
import { PermissionRequest, QuestionRequest } from "./asks.ts";
import {
  AuthRequired,
  ForgeAccountIdentity,
  OauthCredentialsSnapshot,
  StatusSnapshot,
} from "./accounts.ts";
import { PermissionMode, PromptSource } from "./command_fields.ts";
import {
  AvailableModel,
  BackgroundTask,
  CurrentModel,
  McpRead,
  Monitor,
  ProcessSnapshot,
  SlashCommand,
  SubagentInstance,
  SubagentRow,
} from "./session.ts";
import { keyed, promptUuid, type UpdateSpec, words } from "./update_spec.ts";

// The updates a seat's own life and its CLI's frames make (the original's, by name).
// Each reaches the seat's session subscribers; `hears` names the other subjects that hear it.

const cliFrame = z.record(z.string(), z.json()).describe("one CLI stream-json frame, untouched");
const history = z.array(z.json()).describe("the conversation's frames so far, oldest first");
const compactions = z.number().int().describe("how many times the conversation was compacted");
const fleet = ["home", "board"] as const;

/**
 * read_call_output's answer (call_output's `output`), tagged on state: the newest lines of the
 * file the CLI streamed the task's output to, or the named reason there is none. spec: What a
 * client sends > read_call_output ("a path that resolves to nothing at all answers no-path").
 * Built by server/workspace/seats/call_output.ts.
 */
export const CallOutput = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("read"),
    path: z.string().describe("the output file read"),
    lines: z.array(z.string()).describe("its newest lines, oldest first"),
    truncated: z.boolean().describe("whether older lines were left out"),
  }).strict(),
  z.object({ state: z.literal("none"), reason: z.literal("no-path") }).strict(),
]);
export type CallOutput = z.infer<typeof CallOutput>;

const occupant = keyed({
  session_id: z.string().nullable().describe("the occupant's CLI session id"),
  cwd: z.string().describe("the directory the CLI runs in"),
  current_model: CurrentModel.nullable().describe(
    "the model the header draws; null before one is named",
  ),
  available_models: z.array(AvailableModel).describe("the models a picker offers"),
  mode: z.object({ permission_mode: z.string().nullable() }).strict().describe(
    "the permission mode",
  ),
  history,
  compaction_count: compactions,
});

const terminalReason = z.string().nullable().describe(
  "the CLI's terminal_reason, when it gave one",
);

export const SEAT_UPDATES = {
  spawning: {
    about: "A seat is starting its CLI.",
    fields: keyed({
      project_name: z.string(),
      cwd: z.string().describe("the directory the CLI will run in"),
      display_name: z.string().describe("the account the seat binds, else the project's name"),
    }),
    hears: fleet,
  },
  connected: {
    about: "The seat's CLI answered initialize: an occupant holds the seat.",
    fields: occupant,
    hears: fleet,
  },
  session_replaced: {
    about: "A new occupant replaced the seat's previous session (new_session, resume_session).",
    fields: occupant,
    hears: fleet,
  },
  history_replayed: {
    about: "replay_conversation's answer: the seat's newest page again, flattened oldest first.",
    fields: keyed({ history, compaction_count: compactions }),
  },
  call_output: {
    about:
      "read_call_output's answer, to the asking connection alone (seq null): a call's output file, " +
      '{state: "read", path, lines, truncated} or {state: "none", reason}.',
    fields: keyed({
      call_id: z.string().describe("the call the read names"),
      output: CallOutput.describe("the read, tagged on state: read or none"),
    }),
  },
  connection_failed: {
    about: "The seat's CLI could not start, or ended on its own; the seat is Failed.",
    fields: keyed({ message: words, fatal: z.boolean().describe("true: nothing retries it") }),
    hears: fleet,
  },
  releasing: {
    about: "close_session: the seat's CLI is being closed.",
    fields: keyed({}),
    hears: fleet,
  },
  released: {
    about: "close_session's close is done: the seat's CLI has exited and the seat sleeps.",
    fields: keyed({}),
    hears: fleet,
    extension: "v29 says when a release begins (releasing) and nothing when it ends: a CLI " +
      "takes up to seven seconds to close, and home drew the seat as live until a re-read",
  },
  auth_required: {
    about: "The upstream refused the seat's credential (HTTP 401).",
    fields: AuthRequired,
    hears: ["home"],
  },
  notice: {
    about: "A line for the seat's notices: something failed beside the conversation.",
    fields: keyed({ severity: z.enum(["info", "error"]), text: words }),
  },
  set_mode_failed: {
    about: "The CLI refused set_mode.",
    fields: keyed({ mode: PermissionMode, message: words }),
  },
  set_model_failed: {
    about: "The CLI refused set_model.",
    fields: keyed({ model: z.string(), message: words }),
  },
  permission_request: {
    about: "The CLI asks whether a tool call may run; answered with respond_permission.",
    fields: keyed({
      tool_id: z.string().describe("the call's tool_use id"),
      request: PermissionRequest,
    }),
    hears: ["home"],
  },
  question_request: {
    about: "The agent asks the person a question (one per AskUserQuestion question).",
    fields: keyed({
      tool_id: z.string().describe("the call's tool_use id"),
      request: QuestionRequest,
    }),
    hears: ["home"],
  },
  pending_interaction_resolved: {
    about: "A permission or question ask left the seat: answered, withdrawn or superseded.",
    fields: keyed({
      tool_id: z.string(),
      question_index: z.number().int().nullable().describe(
        "the question's index; null for a permission",
      ),
    }),
    hears: ["home"],
  },
  mcp_operation_error: {
    about: "reconnect_mcp_server or toggle_mcp_server failed.",
    fields: keyed({
      error: z.object({
        server_name: z.string(),
        operation: z.enum(["reconnect", "toggle"]),
        message: words,
      }).strict(),
    }),
  },
  turn_complete: {
    about: "The turn ended in a successful result.",
    fields: keyed({ terminal_reason: terminalReason }),
  },
  turn_cancelled: {
    about: "The turn ended because it was interrupted.",
    fields: keyed({}),
    hears: ["home"],
  },
  turn_error: {
    about: "The turn ended in an error result.",
    fields: keyed({
      message: words,
      class: z.string().nullable().describe("the original's TurnErrorClass; forge names none"),
      terminal_reason: terminalReason,
    }),
    hears: ["home"],
  },
  chat_appended: {
    about: "One frame of the conversation: the CLI's own, a forged user turn, or a run of token " +
      "appends folded into one. Home hears only a successful result, a session_state_changed " +
      "frame and a background_tasks_changed frame.",
    fields: keyed({ msg: cliFrame }),
  },
  status_snapshot: {
    about: "What the seat's CLI said of its own auth, and the forge account it runs under.",
    fields: StatusSnapshot,
  },
  forge_account_identity: {
    about: "The forge account the seat runs under now.",
    fields: ForgeAccountIdentity,
  },
  oauth_credentials_snapshot: {
    about: "A config_dir account's login as the CLI stores it, without its tokens.",
    fields: OauthCredentialsSnapshot,
  },
  context_usage_snapshot: {
    about: "A fresh context reading (the header's context).",
    fields: keyed({
      percentage: z.number().nullable().describe("how full the context is, in percent"),
      max_tokens: z.number().nullable().describe("the context window's size"),
    }),
  },
  mcp_snapshot: {
    about: "The CLI's MCP servers and their status, read afresh.",
    fields: keyed(McpRead.shape),
  },
  processes_changed: {
    about: "The process tree under the seat's CLI moved (null once it is gone).",
    fields: keyed({ snapshot: ProcessSnapshot.nullable() }),
  },
  monitors_changed: {
    about: "The watches the session's Monitor tool runs moved: the whole list.",
    fields: keyed({ monitors: z.array(Monitor) }),
  },
  background_tasks_changed: {
    about: "The seat's background tasks moved.",
    fields: keyed({ tasks: z.array(BackgroundTask) }),
  },
  slash_commands_changed: {
    about: "The commands the CLI advertises moved.",
    fields: keyed({ commands: z.array(SlashCommand) }),
  },
  subagents_changed: {
    about: "The agent types the CLI advertises moved.",
    fields: keyed({ subagents: z.array(SubagentRow) }),
  },
  dispatches_changed: {
    about: "Whether any subagent dispatch is live flipped.",
    fields: keyed({ has_dispatches: z.boolean() }),
  },
  subagent_cards_changed: {
    about: "The subagent cards (one per dispatched agent) moved.",
    fields: keyed({ cards: z.array(SubagentInstance) }),
  },
  prompt_queued_while_busy: {
    about: "A prompt arrived while a turn runs: it waits in the CLI's queue (said first).",
    fields: keyed({}),
  },
  prompt_queued: {
    about: "A prompt joined the seat's queue (state.queue gains the row).",
    fields: keyed({ uuid: promptUuid, source: PromptSource, text: z.string() }),
  },
  prompt_lifecycle: {
    about: "A queued prompt moved (the CLI's command_lifecycle); a settled state leaves the queue.",
    fields: keyed({
      uuid: promptUuid,
      state: z.string().describe("queued, started, completed, cancelled, discarded or refused"),
    }),
  },
  prompt_cancel_resolved: {
    about: "cancel_queued_prompt's answer: whether the CLI dropped the prompt.",
    fields: keyed({ uuid: promptUuid, cancelled: z.boolean() }),
  },
} as const satisfies Record<string, UpdateSpec>;
