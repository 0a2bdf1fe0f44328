import { z } from "zod";
import { SeatAccount } from "./accounts.ts";
import { PermissionRequest, QuestionRequest } from "./asks.ts";
import { PromptSource } from "./command_fields.ts";
import { HELD_REQUESTS, type HeldKind } from "./held.ts";
import { DictateNotice, DictateOverrides } from "./dictate.ts";
import { WorkState } from "./home.ts";
import { WireTime } from "./wire_time.ts";
import { ReviewsRow } from "./review.ts";
import { DiffContent, FileIndex, GitWorkView, IssueRef, PrInfo } from "./review_record.ts";
import { Slot } from "./slot.ts";
import { TerminalSummary } from "./terminal_summary.ts";

/**
 * The session subject's snapshot: the one schema its golden test validates. spec: What a subject
 * carries > session. Where the spec names a field but not its shape the original's wire is
 * followed (its SessionWire), each deliberate difference argued beside its field. The review
 * rows (git, pr, closes, diff, file_index, reviews) are protocol/review_record.ts's and
 * review.ts's schemas, the terminal protocol/terminal_summary.ts's, the composer's notice and
 * the state's overrides protocol/dictate.ts's.
 */

/** One prompt still waiting in the CLI's queue, and where it came from. spec: session > state
 * (queue, "each {uuid, source, text}"); the catalogue's PromptSource. */
export const QueuedPrompt = z.object({
  uuid: z.string(),
  source: PromptSource,
  text: z.string(),
}).strict();
export type QueuedPrompt = z.infer<typeof QueuedPrompt>;

/**
 * Why a seat failed: forge's words, and the exit its process ended with (`code` and `signal`
 * null when it never ran or ended otherwise; `stderr_tail` the last of its stderr, empty when
 * none). home's agents row carries the same `message` as its `reason`.
 */
export const SeatFailure = z.object({
  message: z.string(),
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  stderr_tail: z.string(),
}).strict();
export type SeatFailure = z.infer<typeof SeatFailure>;

/** The original's AvailableModel, plus `resolved_model`: which id the alias runs as today (the
 * CLI says so, and it is what a header's `resolved_id` matches). */
export const AvailableModel = z.object({
  id: z.string(),
  display_name: z.string(),
  description: z.string().nullable(),
  supports_effort: z.boolean(),
  supported_effort_levels: z.array(z.string()),
  supports_adaptive_thinking: z.boolean().nullable(),
  supports_fast_mode: z.boolean().nullable(),
  supports_auto_mode: z.boolean().nullable(),
  resolved_model: z.string().nullable(),
}).strict();
export type AvailableModel = z.infer<typeof AvailableModel>;

/** The original's CurrentModel (runtime.rs): the header's model and `connected.current_model`. */
export const CurrentModel = z.object({
  requested_id: z.string().nullable(),
  resolved_id: z.string(),
  display_name_short: z.string(),
  display_name_long: z.string(),
  catalog_id: z.string().nullable(),
  supports_effort: z.boolean(),
  supported_effort_levels: z.array(z.string()),
  supports_fast_mode: z.boolean().nullable(),
  supports_auto_mode: z.boolean().nullable(),
  supports_adaptive_thinking: z.boolean().nullable(),
  is_authoritative: z.boolean(),
}).strict();
export type CurrentModel = z.infer<typeof CurrentModel>;

export const SessionHeader = z.object({
  session_id: z.string().nullable(),
  model: CurrentModel.nullable(),
  available_models: z.array(AvailableModel),
  /**
   * The level forge launched the seat with (launch settings' effortLevel, else the project's
   * effort). Deliberately null where the original always named one: a seat launched with no
   * level runs the CLI's own default, which the CLI does not report on any frame forge reads, so
   * naming one would be a guess drawn as a fact. The original's client narrows null to its
   * fallback level, so it still draws.
   */
  effort: z.string().nullable(),
  permission_mode: z.string().nullable(),
  context: z.object({ percent: z.number().nullable(), max_tokens: z.number().nullable() })
    .strict(),
  turn_in_flight: z.boolean(),
  /** v29: the number the seat's next frame will carry. */
  seq: z.number().int(),
}).strict();

/** The original's ProcessSnapshot; `pid` beside it (additive) is the root the walk began at. */
export const ProcessSnapshot = z.object({
  pid: z.number().int(),
  processes: z.array(
    z.object({
      pid: z.number().int(),
      parent_pid: z.number().int(),
      name: z.string(),
      command: z.string(),
      memory_bytes: z.number().int(),
    }).strict(),
  ),
  scanned_at: WireTime,
}).strict();
export type ProcessSnapshot = z.infer<typeof ProcessSnapshot>;

/** The session's `mcp` read and `mcp_snapshot`'s fields: the CLI's servers, or why not. */
export const McpRead = z.object({
  servers: z.array(z.json()).describe("the CLI's mcp_status rows, as it wrote them"),
  error: z.string().nullable().describe("why the read failed, when it did"),
}).strict();
export type McpRead = z.infer<typeof McpRead>;

const askSeq = z.number().int().describe("the ask's place in this server run's ask sequence");

/** One of the CLI's own asks: its call's id, and the request forge built from its can_use_tool. */
const cliAsk = <K extends string, R extends z.ZodType>(kind: K, request: R) =>
  z.object({ kind: z.literal(kind), tool_id: z.string(), seq: askSeq, request }).strict();

/** A held kind's ask: its id (the one its `respond_*` names), and its card with that id inside. */
const heldAsk = <K extends HeldKind>(kind: K) =>
  z.object({
    kind: z.literal(kind),
    id: z.string(),
    seq: askSeq,
    request: HELD_REQUESTS[kind].extend({ id: z.string() }),
  }).strict();

/**
 * A pending ask, adjacently tagged on `kind` + `request`. spec: session > pending_asks (the held
 * kinds lead, then the CLI's permission and question asks). A permission's `tool_call` carries
 * the original's null `raw_output` / `output_metadata` / `task_metadata` while the call waits.
 * Built by server/workspace/seats/ask_wire.ts (the CLI's) and held.ts (the held kinds').
 */
export const PendingAsk = z.discriminatedUnion("kind", [
  cliAsk("permission", PermissionRequest),
  cliAsk("question", QuestionRequest),
  heldAsk("slack_post"),
  heldAsk("browser_hand_off"),
  heldAsk("document_hand_off"),
  heldAsk("terminal_hand_off"),
  heldAsk("vault_ask"),
  heldAsk("settings_write"),
]);
export type PendingAsk = z.infer<typeof PendingAsk>;
/** A held kind's pending ask, as the held-ask registry lists it. */
export type HeldPendingAsk = Extract<PendingAsk, { kind: HeldKind }>;
/** One of the CLI's own pending asks (a permission or a question). */
export type CliPendingAsk = Extract<PendingAsk, { kind: "permission" | "question" }>;

export const SubagentInstance = z.object({
  name: z.string(),
  dispatch_id: z.string(),
  agent_type: z.string(),
  running: z.boolean(),
  failed: z.boolean(),
  backgrounded: z.boolean(),
  ended_at_ms: z.number().nullable(),
  calls: z.number().int(),
  tail: z.array(z.object({ name: z.string(), title: z.string(), status: z.string() }).strict()),
  usage: z.object({
    total_tokens: z.number(),
    tool_uses: z.number(),
    duration_ms: z.number(),
  }).strict().nullable(),
}).strict();
export type SubagentInstance = z.infer<typeof SubagentInstance>;

/** One command the CLI advertises; `input_hint` is the original's spelling of its argumentHint. */
export const SlashCommand = z.object({
  name: z.string(),
  description: z.string(),
  input_hint: z.string(),
}).strict();
export type SlashCommand = z.infer<typeof SlashCommand>;

/** One agent type the CLI advertises; `model` is its own ("inherit" or an alias), null when the
 * CLI named none. */
export const SubagentRow = z.object({
  name: z.string(),
  description: z.string(),
  model: z.string().nullable(),
}).strict();
export type SubagentRow = z.infer<typeof SubagentRow>;

/** One live task (server/workspace/seats/tasks.ts keeps them). spec: session > background_tasks. */
export const BackgroundTask = z.object({
  task_id: z.string(),
  task_type: z.string(),
  /** The line the row leads with. */
  description: z.string().describe("the line the row leads with"),
  is_backgrounded: z.boolean().describe(
    "whether the CLI backgrounded it (else a long foreground call)",
  ),
  command: z.string().nullable().describe("the command its own call carried, when it was a Bash"),
  tool_use_id: z.string().nullable().describe("the call that began it"),
}).strict();
export type BackgroundTask = z.infer<typeof BackgroundTask>;

/**
 * One watch the session has running: a background task the CLI's Monitor tool began (spec:
 * session > monitors). `command` or `url` is its source (a shell command's lines, a WebSocket's
 * frames); `timeout_ms` the deadline its call asked for. `monitors_changed {key, monitors}`
 * carries the whole list when it moves.
 */
export const Monitor = z.object({
  task_id: z.string(),
  description: z.string(),
  command: z.string().nullable(),
  url: z.string().nullable(),
  timeout_ms: z.number().nullable(),
  tool_use_id: z.string(),
}).strict();
export const MonitorsChanged = z.object({ key: Slot, monitors: z.array(Monitor) }).strict();

/**
 * One turn as a page (`more`'s answer) and the snapshot's conversation carry it: the frames it
 * ran as. `key` is null on every turn of a transcript-derived conversation. spec: more ("Each
 * turn carries key and messages, which is the same shape the session snapshot's conversation
 * carries").
 */
export const ConversationTurn = z.object({
  key: z.string().nullable(),
  messages: z.array(z.json()).describe("the CLI's stream-json frames the turn ran as, untouched"),
}).strict();
export type ConversationTurn = z.infer<typeof ConversationTurn>;

export const SessionSnapshot = z.object({
  slot: Slot,
  header: SessionHeader,
  conversation: z.object({
    turns: z.array(ConversationTurn),
    compaction_count: z.number().int(),
    cursor: z.string().nullable(),
    // spec: session > conversation: the schedule each fired prompt of the read came from, by
    // the prompt's id; absent when the read holds no fired row (as the page's own).
    cron_names: z.record(z.string(), z.string()).optional(),
  }).strict(),
  state: z.object({
    slot: Slot,
    scan_cwd: z.string(),
    queue: z.array(QueuedPrompt),
    voice_listeners: z.number().int(),
    /** spec: session > state > dictate_overrides; absent while dictation is off. */
    dictate_overrides: DictateOverrides.optional(),
  }).strict(),
  /**
   * `machine` is v29's (machine, handoff or compacting); `compacting` the original's flag beside
   * it. `sign_in` is always null: the original drew an in-app CLI login here, and forge signs
   * seats in through the gateway's accounts (home > accounts; `auth_required` names a refused
   * credential), so no seat ever waits on a sign-in the composer could draw.
   */
  composer: z.object({
    machine: z.enum(["machine", "handoff", "compacting"]).nullable(),
    compacting: z.boolean(),
    sign_in: z.null(),
    bind: z.string(),
    mode: z.string(),
    notice: DictateNotice.nullable(),
  }).strict(),
  pending_asks: z.array(PendingAsk),
  pending_ask: PendingAsk.nullable(),
  has_dispatches: z.boolean(),
  slash_commands: z.array(SlashCommand),
  subagents: z.array(SubagentRow),
  subagent_instances: z.array(SubagentInstance),
  background_tasks: z.array(BackgroundTask),
  monitors: z.array(Monitor),
  mcp: McpRead.nullable(),
  processes: ProcessSnapshot.nullable(),
  terminal: TerminalSummary.nullable(),
  work: WorkState.nullable(),
  git: GitWorkView.nullable(),
  pr: PrInfo.nullable(),
  closes: z.array(IssueRef),
  diff: DiffContent.nullable(),
  file_index: FileIndex.nullable(),
  reviews: ReviewsRow.nullable(),
  /** The account the seat runs under (the gateway's; protocol/accounts.ts). */
  account: SeatAccount.optional(),
  /** Why the seat failed, null while it has not (v29 session record; home's `reason`). */
  failure: SeatFailure.nullable().optional(),
}).strict();
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;
type SeatOwned = "composer" | "state";
/**
 * What one part of the server contributes to a session snapshot: whole fields, or fields inside
 * the seat's own `composer` and `state` (dictation's notice and overrides), typed by the schema.
 */
export type SessionPart =
  & { [K in Exclude<keyof SessionSnapshot, SeatOwned>]?: SessionSnapshot[K] }
  & { [K in SeatOwned]?: Partial<SessionSnapshot[K]> };
