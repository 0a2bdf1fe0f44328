import type { BoardSnapshot, ConnectorSets, Slot, Task } from "../../protocol/mod.ts";
import type { ProjectConfig } from "../config/types.ts";
import type { Host } from "../subsystem.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { TaskBook } from "./book.ts";
import { type CronDeliver, Crons, type TickClock } from "./cron.ts";
import { boardRows, type FleetCounts, fleetCounts } from "./rows.ts";
import { BoardError, type TaskList } from "./tasks.ts";

/** A project's lead seat: where its board's updates are keyed and its schedules fire. */
export function leadOf(p: { org: string; name: string }): Slot {
  return { org: p.org, project: p.name, label: LEAD_LABEL };
}

const key = (org: string, name: string) => `${org}/${name}`;

/**
 * Every project's board: the task books, the schedules, and the reads the board subject and
 * home's fleet row are drawn from. A change is written before it is announced: `tasks_changed`
 * and `cron_schedules_changed` carry the project's whole list, keyed by its lead
 * (spec: What a subject carries > board).
 */
export class Board {
  readonly #books = new Map<string, Promise<TaskBook>>();
  /** Other subsystems' fields on each project's entry (the connectors' sets). */
  projectFields: (p: { org: string; name: string }) => { connectors?: ConnectorSets } = () => ({});
  private constructor(readonly host: Host, readonly clock: TickClock, readonly crons: Crons) {}

  static async open(host: Host, clock: TickClock, deliver: CronDeliver): Promise<Board> {
    const crons: Crons = await Crons.open(host.state, host.stateDir, {
      clock,
      deliver,
      log: host.log,
      changed: (org, project) =>
        host.emit({
          name: "cron_schedules_changed",
          fields: { key: leadOf({ org, name: project }), crons: crons.list(org, project) },
        }),
    });
    const board = new Board(host, clock, crons);
    await Promise.all(host.workspace.projects().map((p) => board.book(p)));
    return board;
  }

  /** A project's book, opened on first use (a project a reload adds opens the same way). */
  book(p: { org: string; name: string }): Promise<TaskBook> {
    const k = key(p.org, p.name);
    let got = this.#books.get(k);
    if (!got) {
      got = TaskBook.open(this.host.state, this.host.stateDir, p.org, p.name);
      this.#books.set(k, got);
    }
    return got;
  }

  /** The project a person's command names (by name, as the original's commands carry it). */
  project(name: string): ProjectConfig {
    const found = this.host.workspace.projects().filter((p) => p.name === name);
    if (found.length === 0) throw new BoardError(`no project \`${name}\` is declared`);
    if (found.length > 1) {
      throw new BoardError(
        `\`${name}\` names projects in ${found.map((p) => p.org).join(" and ")}: it is ambiguous`,
      );
    }
    return found[0];
  }

  /** Runs one change on a project's tasks, then announces the project's list. */
  async change<R>(p: { org: string; name: string }, fn: (list: TaskList) => R): Promise<R> {
    const book = await this.book(p);
    const out = await book.change(fn);
    this.host.emit({
      name: "tasks_changed",
      fields: { key: leadOf(p), tasks: book.list.ordered() },
    });
    return out;
  }

  async tasks(p: { org: string; name: string }): Promise<Task[]> {
    return (await this.book(p)).list.ordered();
  }

  /** The board subject's snapshot. spec: What a subject carries > board. */
  async snapshot(): Promise<BoardSnapshot> {
    const now = this.clock.now();
    const projects = this.host.workspace.projects();
    return {
      projects: await Promise.all(projects.map(async (p) => {
        const book = await this.book(p);
        return {
          project: { org: p.org, name: p.name },
          rows: boardRows(book.list.ordered(), now, this.#heldLabels(p)),
          crons: this.crons.list(p.org, p.name),
          // The connectors subsystem fills these; without it the sets are empty.
          connectors: { gotify: [], slack: [] },
          ...this.projectFields({ org: p.org, name: p.name }),
          error: book.error ?? this.crons.error,
        };
      })),
    };
  }

  /** Home's fleet counts for a project, from its tasks (spec: home > fleet). */
  async fleet(p: ProjectConfig): Promise<FleetCounts> {
    const book = await this.book(p);
    const live = this.host.workspace.seats()
      .filter((s) =>
        s.slot.org === p.org && s.slot.project === p.name && s.slot.label !== LEAD_LABEL &&
        s.sessionId() !== null
      )
      .map((s) => s.slot.label);
    return fleetCounts(book.list.tasks, live);
  }

  #heldLabels(p: ProjectConfig): Set<string> {
    return new Set(
      this.host.workspace.seats()
        .filter((s) => s.slot.org === p.org && s.slot.project === p.name)
        .map((s) => s.slot.label),
    );
  }
}
