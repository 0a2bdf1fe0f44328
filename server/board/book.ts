import { z } from "zod";
import { Task } from "../../protocol/mod.ts";
import { DurableJson } from "./durable.ts";
import { Lock } from "../lock.ts";
import { BoardError, TaskList } from "./tasks.ts";

const TaskFile = z.object({ version: z.literal(1), tasks: z.array(Task) }).strict();

/** Where a project's tasks live under forge's state dir. */
export function taskFilePath(stateDir: string, org: string, project: string): string {
  const seg = (s: string) => encodeURIComponent(s);
  return `${stateDir}/board/${seg(org)}/${seg(project)}/tasks.json`;
}

/**
 * One project's task store: the list in memory, the durable file behind it, and one change at a
 * time. A change runs against the list, is written, and only then counts: a refused change or a
 * failed write puts the list back as it was. A file that does not read (damaged, unreadable) is
 * never taken for an empty board: the book keeps the reason and refuses every change, so
 * nothing writes over the rows it could not read.
 */
export class TaskBook {
  #lock = new Lock();

  private constructor(
    readonly list: TaskList,
    readonly file: DurableJson<z.infer<typeof TaskFile>>,
    readonly error: string | null,
  ) {}

  static async open(stateDir: string, org: string, project: string): Promise<TaskBook> {
    const file = new DurableJson(taskFilePath(stateDir, org, project), (raw) => {
      const got = TaskFile.safeParse(raw);
      if (!got.success) {
        throw new Error(`its content is not a task list: ${got.error.issues[0]?.message}`);
      }
      return got.data;
    });
    const read = await file.read();
    if (read.state === "unreadable") return new TaskBook(new TaskList(project), file, read.why);
    const tasks = read.state === "read" ? read.value.tasks : [];
    return new TaskBook(new TaskList(project, tasks), file, null);
  }

  /** Runs `fn` on the list, writes the result, and answers `fn`'s value; one change at a time. */
  change<R>(fn: (list: TaskList) => R): Promise<R> {
    return this.#lock.run(async () => {
      if (this.error !== null) {
        throw new BoardError(`${this.list.project}'s board cannot be changed: ${this.error}`);
      }
      const before = this.list.tasks;
      try {
        const out = fn(this.list);
        await this.file.write({ version: 1, tasks: this.list.tasks });
        return out;
      } catch (err) {
        this.list.tasks = before;
        if (err instanceof BoardError) throw err;
        throw new BoardError(
          `${this.list.project}'s board could not be saved, so nothing changed: ${
            (err as Error).message
          }`,
        );
      }
    });
  }
}
