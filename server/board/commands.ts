import type { Command, Slot } from "../../protocol/mod.ts";
import { type Host, Refusal } from "../subsystem.ts";
import { type Board, leadOf } from "./board.ts";
import { BoardError } from "./tasks.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";

type Of<N extends Command["name"]> = NonNullable<Extract<Command, { name: N }>["fields"]>;
type Fielded<N extends Command["name"]> = { name: N; fields: Of<N> };

/** Who made a schedule from the page: the person, as a prompt's `source` names them. */
const PERSON = "you";

/** The people's task commands: the original forge's six, by their wire names. */
export const TASK_COMMANDS = [
  "task_verdict",
  "task_answer",
  "task_rank",
  "task_assign",
  "task_create",
  "task_move",
  "cron_create",
  "cron_delete",
] as const;

/**
 * The board's commands. Each is fire-and-forget (spec: command): its effect is the
 * `tasks_changed` it causes. An unknown project, an unknown id or a move the row's status does
 * not allow is refused naming the command and what was wrong, and the store is unchanged. A
 * send-back's words and an answer reach the agent as a forged user turn (`source: forge`).
 */
export function taskCommands(host: Host, board: Board) {
  const run = async <R>(what: string, fn: () => Promise<R>): Promise<R> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof BoardError) throw new Refusal(what, `${what}: ${err.message}`);
      throw err;
    }
  };
  /**
   * Hands the words to the seat they are for. A worker that is gone cannot take them, so they go
   * to the project's lead instead, saying whose they were: the words are never dropped. Only
   * when the lead cannot take them either is the command refused (the row stays moved).
   */
  const reach = async (what: string, to: Slot, text: string) => {
    try {
      await host.deliver(to, { text, source: "forge" });
      return;
    } catch (err) {
      if (to.label === LEAD_LABEL) throw undelivered(what, to, err);
      const lead = { ...to, label: LEAD_LABEL };
      const why = (err as Error).message;
      const note =
        `[Board] These words were for ${to.label}, who could not take them (${why}):\n\n`;
      await host.deliver(lead, { text: note + text, source: "forge" }).catch((e) => {
        throw undelivered(what, lead, e);
      });
    }
  };
  return {
    task_create: ({ fields: f }: Fielded<"task_create">) =>
      run("task_create", async () => {
        const p = board.project(f.project);
        await board.change(
          p,
          (l) => l.create({ subject: f.subject, parent: f.parent }, now(), null),
        );
      }),
    task_move: ({ fields: f }: Fielded<"task_move">) =>
      run("task_move", async () => {
        const p = board.project(f.project);
        await board.change(p, (l) => l.move(f.id, f.to, now()));
      }),
    task_rank: ({ fields: f }: Fielded<"task_rank">) =>
      run("task_rank", async () => {
        const p = board.project(f.project);
        await board.change(p, (l) => l.rank(f.id, f.to));
      }),
    task_assign: ({ fields: f }: Fielded<"task_assign">) =>
      run("task_assign", async () => {
        const p = board.project(f.project);
        await board.change(p, (l) => l.assign(f.id, f.owner, now()));
      }),
    task_verdict: ({ fields: f }: Fielded<"task_verdict">) =>
      run("task_verdict", async () => {
        const p = board.project(f.project);
        const words = f.words?.trim() ?? "";
        if (!f.approve && words === "") {
          throw new BoardError("words: a send-back says what is wrong");
        }
        const { task, owner } = await board.change(p, (l) => l.verdict(f.id, f.approve, now()));
        if (f.approve) return;
        await reach("task_verdict", { ...leadOf(p), label: owner }, sendBackText(task, words));
      }),
    cron_create: ({ fields: f }: Fielded<"cron_create">) =>
      run("cron_create", async () => {
        const p = board.project(f.project);
        await board.crons.create(p.org, p.name, PERSON, {
          prompt: f.prompt,
          schedule: f.schedule ?? undefined,
          run_once_at: f.run_once_at ?? undefined,
          description: f.description ?? undefined,
        });
      }),
    cron_delete: ({ fields: f }: Fielded<"cron_delete">) =>
      run("cron_delete", async () => {
        const p = board.project(f.project);
        await board.crons.delete(p.org, p.name, f.id);
      }),
    task_answer: ({ fields: f }: Fielded<"task_answer">) =>
      run("task_answer", async () => {
        const p = board.project(f.project);
        const words = f.words.trim();
        if (words === "") throw new BoardError("words: an answer must not be empty");
        const { task, asker, question } = await board.change(p, (l) => l.answer(f.id, now()));
        await reach(
          "task_answer",
          { ...leadOf(p), label: asker },
          answerText(task, words, question),
        );
      }),
  };

  function now(): number {
    return board.clock.now();
  }
}

/** The prompt a send-back becomes: which row, which attempt, and the person's words. */
export function sendBackText(
  task: { id: string; subject: string; attempt: number },
  words: string,
) {
  return `[Board] Task ${task.id} "${task.subject}" was sent back (attempt ${task.attempt + 1}); ` +
    `it is in progress again. The reviewer says:\n\n${words}`;
}

/** The prompt an answer becomes. */
export function answerText(
  task: { id: string; subject: string },
  words: string,
  question: string,
) {
  return `[Board] Task ${task.id} "${task.subject}": the answer to your question "${question}" ` +
    `is:\n\n${words}`;
}

function undelivered(what: string, to: Slot, err: unknown): Refusal {
  const why = (err as Error).message ?? String(err);
  return new Refusal(
    what,
    `${what}: the row moved, but the words could not reach ${to.label}: ${why}`,
  );
}
