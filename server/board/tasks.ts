import type { RankMove, Task, TaskStatus } from "../../protocol/mod.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";

/**
 * A project's tasks as plain data, and every change a person or an agent can make to them. Each
 * operation checks first and changes after, so a refused one (thrown `BoardError`, a sentence
 * naming what was wrong) leaves the list exactly as it was. Persisting and announcing is the
 * caller's (book.ts). spec: What a subject carries > board; the original forge's task commands.
 */
export class BoardError extends Error {}

/** Which statuses a row may move to from each status. A finished row can only be reopened. */
const MOVES: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ["in_progress", "waiting", "completed", "failed", "canceled"],
  in_progress: ["pending", "waiting", "completed", "failed", "canceled"],
  waiting: ["pending", "in_progress", "completed", "failed", "canceled"],
  completed: ["pending", "in_progress"],
  failed: ["pending", "in_progress"],
  canceled: ["pending", "in_progress"],
};

export const FINISHED: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "canceled"]);

/** The fields an agent or a person may set. `undefined` leaves a field alone; null clears it. */
export interface TaskPatch {
  subject?: string;
  active_form?: string | null;
  detail?: string | null;
  status?: TaskStatus;
  owner?: string | null;
  parent?: string | null;
  artifact?: string | null;
  estimate?: { secs: number | null; words: string | null } | null;
  verify?: "user" | "none";
  /** With status `waiting`: the question the row now waits on a person to answer. */
  question?: string;
}

export interface Clock {
  now(): number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class TaskList {
  constructor(readonly project: string, public tasks: Task[] = []) {}

  get(id: string): Task {
    const t = this.tasks.find((t) => t.id === id);
    if (!t) throw new BoardError(`no task \`${id}\` on ${this.project}'s board`);
    return t;
  }

  /** A new row at the bottom of the board; `by` is the creating seat's label (an asker). */
  create(patch: TaskPatch, now: number, by: string | null): Task {
    const subject = requireText("subject", patch.subject);
    if (patch.parent) this.get(patch.parent);
    if (patch.question !== undefined && patch.status !== "waiting") {
      throw new BoardError("question: only a row created with status `waiting` asks a question");
    }
    const t: Task = {
      id: this.#freshId(),
      project: this.project,
      subject,
      active_form: null,
      detail: null,
      status: "pending",
      owner: null,
      parent: null,
      rank: this.tasks.reduce((m, x) => Math.max(m, x.rank), 0) + 1,
      artifact: null,
      estimate: null,
      verify: "none",
      waiting_on: null,
      attempt: 0,
      created_at: iso(now),
      updated_at: iso(now),
      started_at: null,
      worked_secs: 0,
      running_since: null,
    };
    const draft = applyFields(t, patch);
    if (patch.status && patch.status !== "pending") moveTo(draft, patch.status, now, by, patch);
    this.tasks = [...this.tasks, draft];
    return draft;
  }

  /** An agent's update: any field, and a status move the current status allows. */
  update(id: string, patch: TaskPatch, now: number, by: string | null): Task {
    const current = this.get(id);
    if (patch.subject !== undefined) requireText("subject", patch.subject);
    if (patch.parent) this.#checkParent(id, patch.parent);
    const draft = applyFields({ ...current }, patch);
    if (patch.status !== undefined && patch.status !== current.status) {
      moveTo(draft, patch.status, now, by, patch);
    } else if (patch.question !== undefined) {
      throw new BoardError("question: only a move to status `waiting` asks a question");
    }
    draft.updated_at = iso(now);
    return this.#replace(draft);
  }

  /** A person's move (task_move): the status alone, when the current one allows it. */
  move(id: string, to: TaskStatus, now: number): Task {
    const current = this.get(id);
    if (current.status === to) throw new BoardError(`task \`${id}\` is already ${to}`);
    const draft = { ...current };
    moveTo(draft, to, now, null, {});
    draft.updated_at = iso(now);
    return this.#replace(draft);
  }

  assign(id: string, owner: string | null, now: number): Task {
    const draft = { ...this.get(id), owner: owner === null ? null : requireText("owner", owner) };
    draft.updated_at = iso(now);
    return this.#replace(draft);
  }

  /**
   * A person's verdict on a row awaiting verification: approve completes it; a send-back returns
   * it to its owner in progress, one attempt later. Answers who the send-back's words reach.
   */
  verdict(id: string, approve: boolean, now: number): { task: Task; owner: string } {
    const current = this.get(id);
    if (current.status !== "waiting" || !current.waiting_on?.verification) {
      throw new BoardError(`task \`${id}\` is not awaiting verification (it is ${current.status})`);
    }
    const draft = { ...current };
    if (approve) moveTo(draft, "completed", now, null, {});
    else {
      moveTo(draft, "in_progress", now, null, {});
      draft.attempt += 1;
    }
    draft.updated_at = iso(now);
    return { task: this.#replace(draft), owner: current.owner ?? LEAD_LABEL };
  }

  /** A person's answer to a row waiting on a question: back in progress; names who asked. */
  answer(id: string, now: number): { task: Task; asker: string; question: string } {
    const current = this.get(id);
    const q = current.waiting_on;
    if (current.status !== "waiting" || !q || q.verification || q.question === null) {
      throw new BoardError(`task \`${id}\` is not waiting on a question`);
    }
    const draft = { ...current };
    moveTo(draft, "in_progress", now, null, {});
    draft.updated_at = iso(now);
    const asker = q.asked_by ?? current.owner ?? LEAD_LABEL;
    return { task: this.#replace(draft), asker, question: q.question };
  }

  /** Reorders a row within its queue: the rows sharing its status and its parent. */
  rank(id: string, to: RankMove): Task {
    const row = this.get(id);
    const queue = this.ordered().filter((t) => t.status === row.status && t.parent === row.parent);
    const at = queue.findIndex((t) => t.id === id);
    const rest = queue.filter((t) => t.id !== id);
    let place: number;
    if (to === "top") place = 0;
    else if (to === "up") place = at - 1;
    else if (to === "down") place = at + 1;
    else if (to.before === null) place = rest.length;
    else {
      place = rest.findIndex((t) => t.id === to.before);
      if (place < 0) {
        this.get(to.before);
        throw new BoardError(`task \`${to.before}\` is not in the same queue as \`${id}\``);
      }
    }
    if (place < 0) throw new BoardError(`task \`${id}\` is already at the top of its queue`);
    if (place > rest.length) {
      throw new BoardError(`task \`${id}\` is already at the bottom of its queue`);
    }
    rest.splice(place, 0, row);
    // The queue takes the ranks it already held, in its new order: other queues are untouched.
    const ranks = queue.map((t) => t.rank).sort((a, b) => a - b);
    const moved = new Map(rest.map((t, i) => [t.id, ranks[i]]));
    this.tasks = this.tasks.map((t) => moved.has(t.id) ? { ...t, rank: moved.get(t.id)! } : t);
    return this.get(id);
  }

  /** Removes a row and every row under it; answers what was removed, the row first. */
  delete(id: string): Task[] {
    const root = this.get(id);
    const gone = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of this.tasks) {
        if (t.parent && gone.has(t.parent) && !gone.has(t.id)) {
          gone.add(t.id);
          grew = true;
        }
      }
    }
    const removed = [root, ...this.tasks.filter((t) => gone.has(t.id) && t.id !== id)];
    this.tasks = this.tasks.filter((t) => !gone.has(t.id));
    return removed;
  }

  /** The rows in board order: rank, then age. */
  ordered(): Task[] {
    return [...this.tasks].sort((a, b) =>
      a.rank - b.rank || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)
    );
  }

  #replace(draft: Task): Task {
    this.tasks = this.tasks.map((t) => t.id === draft.id ? draft : t);
    return draft;
  }

  #checkParent(id: string, parent: string): void {
    for (let at: string | null = parent; at !== null; at = this.get(at).parent) {
      if (at === id) throw new BoardError(`parent: \`${parent}\` is \`${id}\` or one of its rows`);
    }
  }

  #freshId(): string {
    for (;;) {
      const id = `t-${crypto.randomUUID().slice(0, 8)}`;
      if (!this.tasks.some((t) => t.id === id)) return id;
    }
  }
}

function requireText(field: string, value: string | undefined): string {
  const text = value?.trim() ?? "";
  if (text === "") throw new BoardError(`${field}: must not be empty`);
  return text;
}

/** The plain fields of a patch onto a draft (status is moveTo's). */
function applyFields(t: Task, p: TaskPatch): Task {
  if (p.subject !== undefined) t.subject = p.subject.trim();
  if (p.active_form !== undefined) t.active_form = p.active_form;
  if (p.detail !== undefined) t.detail = p.detail;
  if (p.owner !== undefined) t.owner = p.owner === null ? null : requireText("owner", p.owner);
  if (p.parent !== undefined) t.parent = p.parent;
  if (p.artifact !== undefined) t.artifact = p.artifact;
  if (p.estimate !== undefined) t.estimate = p.estimate;
  if (p.verify !== undefined) t.verify = p.verify;
  return t;
}

/**
 * Moves a draft's status, keeping worked time and the waiting mark in step. An agent finishing
 * a row that asks for verification (`verify: user`) leaves it waiting on a person's verdict.
 */
function moveTo(t: Task, to: TaskStatus, now: number, by: string | null, p: TaskPatch): void {
  if (!MOVES[t.status].includes(to)) {
    throw new BoardError(`status: task \`${t.id}\` cannot move from ${t.status} to ${to}`);
  }
  if (p.question !== undefined && to !== "waiting") {
    throw new BoardError("question: only a move to status `waiting` asks a question");
  }
  if (t.running_since !== null) {
    t.worked_secs += Math.max(0, (now - Date.parse(t.running_since)) / 1000);
    t.running_since = null;
  }
  t.waiting_on = null;
  const byAgent = by !== null;
  if (to === "completed" && byAgent && t.verify === "user") {
    t.status = "waiting";
    t.waiting_on = { verification: true, question: null, asked_by: null, since: iso(now) };
    return;
  }
  t.status = to;
  if (to === "in_progress") {
    t.running_since = iso(now);
    t.started_at ??= iso(now);
  }
  if (to === "waiting") {
    const question = p.question === undefined ? null : requireText("question", p.question);
    t.waiting_on = {
      verification: false,
      question,
      asked_by: question ? by : null,
      since: iso(now),
    };
  }
}
