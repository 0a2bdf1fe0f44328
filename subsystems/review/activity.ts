/**
 * How a review write reaches every viewer. Each write to a scope's threads pushes
 * `review_threads_changed {key, branch, reviews}` to every seat of the project on that branch, so
 * a page redraws its threads from the frame rather than re-reading the record (forge's own
 * update; the original's pages re-read on a notice). And what an agent did to a review in one
 * turn is told once, when the turn ends: the original forge's `review` family, "At the end of a
 * turn the reviewer gets one notice per review", as the original's `review_activity_notice {key,
 * branch, waiting, message}`.
 */
import { type SessionUpdate, type Slot, slotName, updateSlot } from "../../protocol/mod.ts";
import type { Host } from "../../server/subsystem.ts";
import { LEAD_LABEL } from "../../server/workspace/workspace.ts";
import { branchAt, type ReviewScopeKey } from "./scope.ts";
import type { ReviewSet, ReviewThread, ThreadStore } from "./threads.ts";

type Done = "replied" | "resolved";

interface TurnActivity {
  scope: ReviewScopeKey;
  /** Who the notice names: the worker's label, `agent` for a lead (the reply attribution). */
  who: string;
  threads: Map<string, Set<Done>>;
}

const TURN_ENDS = new Set(["turn_complete", "turn_cancelled", "turn_error"]);

export class ReviewActivity {
  #turns = new Map<string, TurnActivity>();

  constructor(private readonly host: Host, private readonly store: ThreadStore) {}

  /** Pushes the scope's threads and rounds to every seat of the project on that branch. */
  async threadsChanged(scope: ReviewScopeKey): Promise<void> {
    const reviews = await this.store.readScope(scope.project, scope.branch);
    for (const key of await this.#seatsOn(scope)) {
      this.host.emit({
        name: "review_threads_changed",
        fields: { key, branch: scope.branch, reviews },
      });
    }
  }

  /** Records what an agent did to one thread in the turn it is running. */
  note(slot: Slot, scope: ReviewScopeKey, who: string, threadId: string, done: Done): void {
    const name = slotName(slot);
    let turn = this.#turns.get(name);
    if (!turn || turn.scope.branch !== scope.branch || turn.scope.project !== scope.project) {
      turn = { scope, who, threads: new Map() };
      this.#turns.set(name, turn);
    }
    const seen = turn.threads.get(threadId) ?? new Set<Done>();
    seen.add(done);
    turn.threads.set(threadId, seen);
  }

  /**
   * A turn that ended sends its notices: one per review round the agent touched. Returns the
   * sending (the rounds are read first), or null when the update ends no turn with activity.
   */
  onUpdate(update: SessionUpdate): Promise<void> | null {
    const key = updateSlot(update);
    if (!TURN_ENDS.has(update.name) || !key) return null;
    const turn = this.#turns.get(slotName(key));
    if (!turn) return null;
    this.#turns.delete(slotName(key));
    return this.#notify(key, turn).catch((error) =>
      this.host.log.warn("review_activity_failed", { seat: slotName(key), error })
    );
  }

  async #notify(key: Slot, turn: TurnActivity): Promise<void> {
    const { project, branch } = turn.scope;
    const [threads, rounds] = await Promise.all([
      this.store.readThreads(project, branch),
      this.store.readReviews(project, branch),
    ]);
    if (threads.outcome !== "read" || rounds.outcome !== "read") return;
    for (const round of rounds.value) {
      const members = threads.value.filter((t) => roundOf(t, rounds.value) === round.id);
      const touched = members.filter((t) => turn.threads.has(t.id));
      if (touched.length === 0) continue;
      const count = (d: Done) => touched.filter((t) => turn.threads.get(t.id)!.has(d)).length;
      const open = members.filter((t) => t.status === "open").length;
      this.host.emit({
        name: "review_activity_notice",
        fields: {
          key,
          branch,
          waiting: open,
          message: `${turn.who} addressed review #${round.number} - ${count("replied")} replied, ` +
            `${count("resolved")} resolved, ${open} open. Open /diff.`,
        },
      });
    }
  }

  /** The project's seats whose checkout is on `branch`, and its lead whether or not it runs. */
  async #seatsOn(scope: ReviewScopeKey): Promise<Slot[]> {
    const seats = this.host.workspace.seats().filter((s) => s.project.name === scope.project);
    const project = this.host.workspace.projects().find((p) => p.name === scope.project);
    if (
      project && !seats.some((s) => s.slot.label === LEAD_LABEL && s.project.org === project.org)
    ) {
      seats.push({
        slot: { org: project.org, project: project.name, label: LEAD_LABEL },
        project,
        cwd: project.path,
        sessionId: () => null,
      });
    }
    // One symbolic-ref per checkout, all at once: a project of many workers is not read in turn.
    const branches = new Map<string, Promise<{ branch: string } | { why: string }>>();
    for (const seat of seats) {
      if (!branches.has(seat.cwd)) branches.set(seat.cwd, branchAt(seat.cwd));
    }
    const at = await Promise.all(seats.map((seat) => branches.get(seat.cwd)!));
    return seats.filter((_, i) => {
      const here = at[i];
      return "branch" in here && here.branch === scope.branch;
    }).map((seat) => seat.slot);
  }
}

/** The round a thread belongs to: the newest round one of the person's turns was filed in. */
export function roundOf(thread: ReviewThread, rounds: readonly ReviewSet[]): string | null {
  const filed = new Set(thread.comments.map((c) => c.review_id).filter((id) => id !== null));
  const newest = rounds.filter((r) => filed.has(r.id)).sort((a, b) => b.number - a.number)[0];
  return newest?.id ?? null;
}
