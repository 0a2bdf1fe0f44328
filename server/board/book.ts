import { z } from "zod";
import { Task } from "../../protocol/mod.ts";
import { type KeptFile, schemaParse, type StateKeeper, StateWriteError } from "../state/keeper.ts";
import type { Logger } from "../log.ts";
import { Lock } from "../lock.ts";
import { BoardError, TaskList } from "./tasks.ts";

const TaskFile = z.object({ version: z.literal(1), tasks: z.array(Task) }).strict();
type TaskFile = z.infer<typeof TaskFile>;

/** Where a project's tasks live under forge's state dir. */
export function taskFilePath(stateDir: string, org: string, project: string): string {
  const seg = (s: string) => encodeURIComponent(s);
  return `${stateDir}/board/${seg(org)}/${seg(project)}/tasks.json`;
}

/**
 * One project's task store: the list in memory, the kept file behind it (server/state/), and
 * one change at a time. A change runs against the list, is written, and only then counts: a
 * refused change or a failed write puts the list back as it was. A file that does not parse is
 * never taken for an empty board: the keeper keeps a copy aside, `error` says why, and every
 * change is refused until the file is mended (then its rows are read back) or removed.
 */
export class TaskBook {
  #lock = new Lock();

  private constructor(
    readonly list: TaskList,
    readonly file: KeptFile<TaskFile>,
    private readonly log: Logger,
  ) {}

  static async open(
    keeper: StateKeeper,
    stateDir: string,
    org: string,
    project: string,
  ): Promise<TaskBook> {
    const file = keeper.file(taskFilePath(stateDir, org, project), {
      area: `the board of ${project}`,
      parse: schemaParse(TaskFile, "a task list"),
    });
    const read = await file.read();
    const tasks = read.state === "read" ? read.value.tasks : [];
    return new TaskBook(new TaskList(project, tasks), file, keeper.log);
  }

  /** Why the board cannot be changed (its file is damaged); null when it can. */
  get error(): string | null {
    return this.file.damage;
  }

  /** Runs `fn` on the list, writes the result, and answers `fn`'s value; one change at a time. */
  change<R>(fn: (list: TaskList) => R): Promise<R> {
    return this.#lock.run(async () => {
      try {
        const mended = await this.file.writable();
        if (mended) this.list.tasks = mended.state === "read" ? mended.value.tasks : [];
      } catch (err) {
        throw new BoardError(`${this.list.project}'s board cannot be changed: ${words(err)}`);
      }
      const before = this.list.tasks;
      try {
        const out = fn(this.list);
        await this.file.write({ version: 1, tasks: this.list.tasks });
        return out;
      } catch (err) {
        this.list.tasks = before;
        if (err instanceof BoardError) throw err;
        if (!(err instanceof StateWriteError)) {
          this.log.error("board_change_failed", { error: err });
        }
        throw new BoardError(
          `${this.list.project}'s board could not be saved, so nothing changed: ${words(err)}`,
        );
      }
    });
  }
}

/** A keeper's refusal is already in forge's words; anything else is not passed on. */
function words(err: unknown): string {
  return err instanceof StateWriteError ? err.message : "forge could not run the change";
}
