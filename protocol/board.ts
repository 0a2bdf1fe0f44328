import { z } from "zod";
import { ConnectorSets } from "./connectors.ts";
import { Slot } from "./slot.ts";

// The board's wire shapes: its rows, its schedules and the updates that move them. spec: What a
// subject carries > board; home > fleet. Where the spec leaves a shape open the original's is
// used (its task commands, tasks_changed / cron_schedules_changed / cron_prompt_appended, Task
// and BoardRow), trimmed to what forge stores.

/** The original's TaskStatus. */
export const TaskStatus = z.enum([
  "pending",
  "in_progress",
  "waiting",
  "completed",
  "failed",
  "canceled",
]);
export type TaskStatus = z.infer<typeof TaskStatus>;

/**
 * The original's RankMove: `"top" | "up" | "down" | {before: id?}` (a null `before` is the bottom).
 */
export const RankMove = z.union([
  z.enum(["top", "up", "down"]),
  z.object({ before: z.string().nullable() }).strict(),
]);
export type RankMove = z.infer<typeof RankMove>;

/** What a waiting row waits on: a person's verification, or a question someone asked. */
export const WaitingOn = z.object({
  /** True when the owner finished and the row waits for a person's verdict. */
  verification: z.boolean(),
  /** The question asked (null for a verification). */
  question: z.string().nullable(),
  /** The label of the seat that asked: the one an answer reaches. */
  asked_by: z.string().nullable(),
  since: z.string(),
}).strict();
export type WaitingOn = z.infer<typeof WaitingOn>;

/** An estimate of the work, as the agent gave it. */
export const Estimate = z.object({
  secs: z.number().int().nonnegative().nullable(),
  words: z.string().nullable(),
}).strict();

/** One stored task (the original's Task, with forge's worked-time fields). Times are RFC 3339. */
export const Task = z.object({
  id: z.string(),
  project: z.string(),
  subject: z.string(),
  active_form: z.string().nullable(),
  detail: z.string().nullable(),
  status: TaskStatus,
  /** The owning seat's label within the project (`lead` for the project's own agent). */
  owner: z.string().nullable(),
  parent: z.string().nullable(),
  rank: z.number().int(),
  artifact: z.string().nullable(),
  estimate: Estimate.nullable(),
  /** `user`: completing the row waits for a person's verdict. */
  verify: z.enum(["user", "none"]),
  waiting_on: WaitingOn.nullable(),
  attempt: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When it first went in progress. */
  started_at: z.string().nullable(),
  /** Seconds spent in progress before the current run (worked time = this + the running span). */
  worked_secs: z.number().nonnegative(),
  /** When the current in-progress run began; null when not in progress. */
  running_since: z.string().nullable(),
}).strict();
export type Task = z.infer<typeof Task>;

/** The marks a board row draws (the original's BoardRow marks), each derived at read time. */
export const RowMarks = z.object({
  /** Waiting on a person's verdict. */
  in_review: z.boolean(),
  /** Waiting on a question a person has to answer. */
  waiting_on_user: z.boolean(),
  /** Owned by a worker whose seat is gone. */
  stale: z.boolean(),
  /** Waiting for more than an hour. */
  waiting_too_long: z.boolean(),
  /** Worked longer than its estimate. */
  overdue: z.boolean(),
  /** In progress and untouched for more than thirty minutes. */
  no_movement: z.boolean(),
  /** An epic whose children are all finished while it is not. */
  to_close: z.boolean(),
}).strict();
export type RowMarks = z.infer<typeof RowMarks>;

/** A board row: the task with its worked time, ages and marks, its rollup and its epic. */
export const BoardRow = z.object({
  task: Task,
  marks: RowMarks,
  worked_secs: z.number().int().nonnegative(),
  updated_secs_ago: z.number().int().nonnegative(),
  age_secs: z.number().int().nonnegative(),
  /** An epic's [finished children, children]; null for a row with no children. */
  rollup: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /** The subject of the row's epic (its parent); null for a top-level row. */
  epic_subject: z.string().nullable(),
}).strict();
export type BoardRow = z.infer<typeof BoardRow>;

/** A schedule: recurring (5-field cron, host local time) or one instant (RFC 3339). */
export const CronSchedule = z.union([
  z.object({ recurring: z.string() }).strict(),
  z.object({ once_at: z.string() }).strict(),
]);
export type CronSchedule = z.infer<typeof CronSchedule>;

/** A stored schedule (the original's cron__create answer, plus what forge keeps to fire it). */
export const CronEntry = z.object({
  id: z.string(),
  org: z.string(),
  project: z.string(),
  schedule: CronSchedule,
  prompt: z.string(),
  description: z.string().nullable(),
  /** The label that created it. */
  created_by: z.string(),
  created_at: z.string(),
  /** The next instant it fires; a due one fires on the next tick (a server that was down: once). */
  next_fire: z.string(),
  last_fired: z.string().nullable(),
  /** Why the last fire could not be delivered; null once one lands. */
  last_error: z.string().nullable(),
}).strict();
export type CronEntry = z.infer<typeof CronEntry>;

/** A project's connector subscription sets (spec: board > projects > connectors). */
export const BoardConnectors = ConnectorSets;

/** One project's entry on the board subject. spec: board > projects. */
export const BoardProject = z.object({
  project: z.object({ org: z.string(), name: z.string() }).strict(),
  rows: z.array(BoardRow),
  crons: z.array(CronEntry),
  connectors: BoardConnectors,
  /** Why the project's stored board could not be read (rows then stay empty, writes refused). */
  error: z.string().nullable(),
}).strict();

/** The board subject's snapshot. */
export const BoardSnapshot = z.object({ projects: z.array(BoardProject) }).strict();
export type BoardSnapshot = z.infer<typeof BoardSnapshot>;

/** `tasks_changed`: the project's whole task list, keyed by its lead. */
export const TasksChanged = z.object({ key: Slot, tasks: z.array(Task) }).strict();
/** `cron_schedules_changed`: the project's schedules, keyed by its lead. */
export const CronSchedulesChanged = z.object({ key: Slot, crons: z.array(CronEntry) }).strict();
/** `cron_prompt_appended`: a schedule fired into its lead. */
export const CronPromptAppended = z.object({
  key: Slot,
  text: z.string(),
  uuid: z.string(),
  cron_id: z.string(),
  description: z.string().nullable(),
  /**
   * forge's, beyond v29: the schedule's name as cron_names carries it (protocol/beyond.ts);
   * optional because a v29 server's update has none.
   */
  name: z.string().optional(),
}).strict();

/**
 * Home's fleet row, counted from the tasks and the seats. spec: home > fleet. The original's
 * spelling where it has one: `slots` is the worker cap, `live_workers` the workers
 * holding a session and `queue` the ready rows, all numbers. v29 asks for "live against the cap"
 * and "ready and unowned", which the original did not carry: those ride beside them as `live`
 * (every seat holding a session, the lead included), `cap` (the workers plus the lead) and
 * `unowned` (ready rows nobody owns), so an older client reads its three numbers unchanged.
 */
export const FleetRow = z.object({
  project: z.string(),
  slots: z.number().int(),
  live_workers: z.number().int(),
  queue: z.number().int(),
  unowned: z.number().int(),
  live: z.number().int(),
  cap: z.number().int(),
  waiting_on_user: z.number().int(),
  rows: z.number().int(),
  misses: z.array(z.object({ unaccounted_worker: z.string() }).strict()),
}).strict();
export type FleetRow = z.infer<typeof FleetRow>;
