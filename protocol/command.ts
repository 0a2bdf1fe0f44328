import { z } from "zod";
import { RankMove, TaskStatus } from "./board.ts";
import {
  DictateAxes,
  DictateDeviceChoice,
  DictateOverrideUpdate,
  DictateSurface,
} from "./dictate.ts";
import { BenchTarget, BenchTier, DictateRole } from "./dictate_models.ts";
import { Slot } from "./slot.ts";
import { DeliverGotifyMessageFields } from "./connectors.ts";
import {
  NotifySubscribeFields,
  NotifyTestFields,
  NotifyTestReply,
  NotifyUnsubscribeFields,
} from "./notify.ts";
import { ListSessionsReply } from "./home.ts";
import { ReviewSet, ReviewStatus, ReviewThread } from "./review.ts";
import {
  BiometricEnrol,
  BiometricRelease,
  BiometricRewrite,
  EnrolmentMaterial,
  VaultAnswer,
  VaultEnrolmentMaterial,
  WrappedBlob,
} from "./vault.ts";
import {
  CloseWorkerFields,
  DeliverPeerPromptFields,
  DeliverWorkerPromptFields,
  DeliverWorkerPromptToLeadFields,
  DespawnResult,
  DespawnWorkerFields,
  SpawnWorkerBody,
  SpawnWorkerFields,
} from "./workers.ts";
import {
  ImageAttachment,
  LaunchSettings,
  PermissionMode,
  PermissionOutcome,
  PluginScope,
  PromptSource,
  QuestionOutcome,
  SpawnRole,
} from "./command_fields.ts";

// spec: How a message is tagged. A Command is externally tagged on the variant's own name:
// `{"cancel": {"key": ...}}`, and a unit variant crosses as the bare name. This is the table of
// them; command_fields.ts holds the field shapes several rows share, command_wire.ts reads and
// writes the wire form against the table.

/** One row of the command table: its fields, its reply (required `reply_to`) and, for a command
 * forge adds beyond protocol v29, why. */
export interface CommandSpec {
  fields: z.ZodType | null;
  /** The success body's schema: the command answers through `reply` (refusals as a string). */
  reply?: z.ZodType;
  extension?: string;
}

const NOTIFY = "the person's push subscriptions and test push (docs/notify.md); v29 has no pushes";
const CRON =
  "a person's schedule made or removed from the board page: v29 gives a person no command for it";
const key = { key: Slot };
const review = { project: z.string(), branch: z.string() };
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

/**
 * Every Command variant this server knows, with its field schema (`null` for a unit variant) and
 * whether `reply_to` is required. The reply rule is enforced from this one table, both ways, before
 * the command runs. spec: What a client sends > command.
 */
export const COMMANDS = {
  prompt: { fields: obj({ ...key, text: z.string(), attachments: z.array(ImageAttachment) }) },
  prompt_under: {
    fields: obj({
      ...key,
      text: z.string(),
      attachments: z.array(ImageAttachment),
      uuid: z.string().min(1),
      source: PromptSource,
    }),
  },
  cancel: { fields: obj(key) },
  cancel_queued_prompt: { fields: obj({ ...key, uuid: z.string() }) },
  replay_conversation: { fields: obj(key) },
  read_call_output: { fields: obj({ ...key, call_id: z.string() }) },
  list_sessions: {
    fields: obj(key),
    reply: ListSessionsReply,
    extension: "the seat's project's earlier conversations with what to call each, for the " +
      "resume list: home's project.sessions carries ids and times only, and the original's " +
      "list-sessions ask has no v29 command",
  },
  set_mode: { fields: obj({ ...key, mode: PermissionMode }) },
  set_model: { fields: obj({ ...key, model: z.string() }) },
  new_session: { fields: obj({ ...key, cwd: z.string(), launch_settings: LaunchSettings }) },
  resume_session: {
    fields: obj({
      ...key,
      session_id: z.string(),
      cwd: z.string(),
      launch_settings: LaunchSettings,
    }),
  },
  respond_permission: { fields: obj({ ...key, tool_id: z.string(), outcome: PermissionOutcome }) },
  respond_question: { fields: obj({ ...key, tool_id: z.string(), outcome: QuestionOutcome }) },
  respond_slack_post: { fields: obj({ ...key, id: z.string(), approved: z.boolean() }) },
  respond_browser_hand_off: { fields: obj({ ...key, id: z.string(), done: z.boolean() }) },
  respond_terminal_hand_off: {
    fields: obj({ ...key, id: z.string(), done: z.boolean() }),
    extension: "v29 parks a terminal hand-off (session > pending_asks) and names no command that " +
      "answers it; forge answers it as the browser's is",
  },
  respond_settings_write: { fields: obj({ ...key, id: z.string(), approved: z.boolean() }) },
  respond_vault_ask: { fields: obj({ ...key, id: z.string(), answer: VaultAnswer }) },
  set_dictate_override: { fields: obj({ ...key, update: DictateOverrideUpdate }) },
  reset_dictate_overrides: { fields: obj(key) },
  set_dictate_device: { fields: obj({ ...key, pick: DictateDeviceChoice.nullable() }) },
  dictate_catalogue_check: { fields: null },
  dictate_install: { fields: obj({ variant: z.string() }) },
  dictate_activate: { fields: obj({ role: DictateRole, file: z.string() }) },
  dictate_deactivate: { fields: obj({ role: DictateRole }) },
  dictate_bench: { fields: obj({ target: BenchTarget, tier: BenchTier }) },
  dictate_bench_stop: { fields: null },
  dictate_read_aloud_start: { fields: obj({}) },
  dictate_read_aloud_stop: { fields: obj({ keep: z.boolean() }) },
  dictate_read_aloud_delete: { fields: obj({ id: z.string() }) },
  dictate_bench_delete: {
    fields: obj({ target: BenchTarget, tier: BenchTier, corpus: z.string() }),
  },
  dictate_uninstall: { fields: obj({ file: z.string() }) },
  dictate_start: { fields: obj(key) },
  dictate_stream: {
    fields: obj({ ...key, options: DictateAxes, surface: DictateSurface.nullable().optional() }),
  },
  dictate_stop: { fields: obj({ ...key, submit: z.boolean() }) },
  voice_bench_start: { fields: null },
  voice_bench_stop: { fields: null },
  reconnect_mcp_server: { fields: obj({ ...key, server_name: z.string() }) },
  toggle_mcp_server: { fields: obj({ ...key, server_name: z.string(), enabled: z.boolean() }) },
  spawn_project: { fields: obj({ project_name: z.string(), launch_settings: LaunchSettings }) },
  spawn_session: { fields: obj({ ...key, role: SpawnRole, launch_settings: LaunchSettings }) },
  start_default: {
    fields: obj({ project_name: z.string().nullable(), launch_settings: LaunchSettings }),
  },
  close_session: { fields: obj({ session_key: Slot }) },
  task_verdict: {
    fields: obj({
      project: z.string(),
      id: z.string(),
      approve: z.boolean(),
      words: z.string().nullable(),
    }),
  },
  task_answer: { fields: obj({ project: z.string(), id: z.string(), words: z.string() }) },
  task_rank: { fields: obj({ project: z.string(), id: z.string(), to: RankMove }) },
  task_assign: {
    fields: obj({ project: z.string(), id: z.string(), owner: z.string().nullable() }),
  },
  task_create: {
    fields: obj({ project: z.string(), subject: z.string(), parent: z.string().nullable() }),
  },
  task_move: { fields: obj({ project: z.string(), id: z.string(), to: TaskStatus }) },
  // forge's own, beyond v29: a person's schedule made and removed from the board page (an agent's
  // are its cron__create and cron__delete tools). Exactly one of `schedule` and `run_once_at`.
  cron_create: {
    fields: obj({
      project: z.string(),
      prompt: z.string(),
      schedule: z.string().nullable(),
      run_once_at: z.string().nullable(),
      description: z.string().nullable(),
    }),
    extension: CRON,
  },
  cron_delete: { fields: obj({ project: z.string(), id: z.string() }), extension: CRON },
  deliver_peer_prompt: { fields: DeliverPeerPromptFields },
  spawn_worker: { fields: SpawnWorkerFields, reply: SpawnWorkerBody },
  close_worker: { fields: CloseWorkerFields },
  despawn_worker: { fields: DespawnWorkerFields, reply: DespawnResult },
  open_url: { fields: obj({ url: z.string() }) },
  deliver_worker_prompt: { fields: DeliverWorkerPromptFields },
  deliver_worker_prompt_to_lead: { fields: DeliverWorkerPromptToLeadFields },
  deliver_gotify_message: { fields: DeliverGotifyMessageFields },
  save_review_threads: { fields: obj({ ...review, threads: z.array(ReviewThread) }) },
  remove_review_thread: { fields: obj({ ...review, thread_id: z.string() }) },
  // The third of "the three review writes" that require reply_to (spec: command > reply_to):
  // a reviewer's resolve or reopen, answered with the bool upsert_review_thread's is.
  set_review_thread_status: {
    fields: obj({ ...review, thread_id: z.string(), status: ReviewStatus }),
    reply: z.boolean().describe("whether the thread's status was stored"),
  },
  upsert_review_thread: {
    fields: obj({ ...review, thread: ReviewThread }),
    reply: z.boolean().describe("whether the thread was stored"),
  },
  submit_review: {
    fields: obj({
      ...review,
      summary: z.string().nullable(),
      thread_ids: z.array(z.string()),
      origin: Slot,
    }),
    reply: ReviewSet.nullable().describe(
      "the review as filed; null when the store could not write",
    ),
  },
  biometric_release: {
    fields: BiometricRelease,
    reply: WrappedBlob.describe("the enrolment's wrapped blob, as base64"),
  },
  biometric_enrol: { fields: BiometricEnrol, reply: z.literal(true).describe("enrolled") },
  biometric_rewrite: {
    fields: BiometricRewrite,
    reply: z.boolean().describe("whether a row the person created was rewritten"),
  },
  vault_enrolment_material: { fields: VaultEnrolmentMaterial, reply: EnrolmentMaterial },
  vault_lock: { fields: null },
  plugin_update_all: { fields: null },
  plugin_check_updates: { fields: null },
  // The four plugin actions with fields are v29's own, not extensions: six actions cross (spec:
  // What is not here > the rest of the extensions surface) and its 63 struct variants count these
  // four (spec: How a message is tagged). The spec spells neither their names nor their fields,
  // so those are forge's reading, beside the two unit variants it does name.
  plugin_install: { fields: obj({ plugin_id: z.string() }) },
  plugin_update: { fields: obj({ plugin_id: z.string(), scope: PluginScope.optional() }) },
  plugin_marketplace_add: { fields: obj({ source: z.string() }) },
  plugin_marketplace_repair: { fields: obj({ marketplace: z.string() }) },
  // forge's extensions beyond v29 (protocol/notify.ts): the person's push subscriptions and test.
  notify_subscribe: { fields: NotifySubscribeFields, extension: NOTIFY },
  notify_unsubscribe: { fields: NotifyUnsubscribeFields, extension: NOTIFY },
  notify_test: { fields: NotifyTestFields, reply: NotifyTestReply, extension: NOTIFY },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
type FieldsOf<N extends CommandName> = (typeof COMMANDS)[N]["fields"] extends z.ZodType
  ? z.infer<(typeof COMMANDS)[N]["fields"]>
  : null;
/** A decoded command: its variant name and its field bag (null for a unit variant). */
export type Command = { [N in CommandName]: { name: N; fields: FieldsOf<N> } }[CommandName];

/** What a client writes as command N's fields: its schema's input (null for a unit variant). */
export type CommandInput<N extends CommandName> = (typeof COMMANDS)[N]["fields"] extends
  infer S extends z.ZodType ? z.input<S> : null;

/**
 * One command as it crosses in `command {command}`: the bare name for a unit variant, else
 * `{"<name>": fields}` (spec: How a message is tagged). A misspelt name or a wrong field does not
 * compile; the server still reads what arrives through `decodeCommand`, since a client need not
 * be TypeScript.
 */
export type WireCommand = {
  [N in CommandName]: (typeof COMMANDS)[N]["fields"] extends z.ZodType
    ? { [K in N]: CommandInput<N> }
    : N;
}[CommandName];

/** The commands whose outcome rides a `reply` (spec: command > reply_to). */
export type ReplyCommandName = {
  [N in CommandName]: (typeof COMMANDS)[N] extends { reply: z.ZodType } ? N : never;
}[CommandName];

/** Reply command N's success body (its refusal rides the same reply as a string). */
export type ReplyOf<N extends ReplyCommandName> = (typeof COMMANDS)[N] extends
  { reply: infer S extends z.ZodType } ? z.infer<S> : never;
