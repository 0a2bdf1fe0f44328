import { useEffect, useState } from "preact/hooks";
import { type BoardRow, TaskStatus } from "../../../../protocol/mod.ts";
import { useApp, useForge } from "./use.ts";

/** spec: board - "a page holding the subject re-reads on a slow beat of its own - 30 s". */
const BEAT_MS = 30_000;

/**
 * One project's board: each task with its status, owner, rollup and the marks that are set;
 * away from the home (`compact` off) each row also carries its actions - move, rank, assign, a
 * verdict on a row in review, an answer to a row waiting on the user. Each is a fire-and-forget
 * command whose effect is the board's re-read (spec: board; the original's task commands).
 */
export function ProjectBoard(props: { org: string; project: string; compact?: boolean }) {
  const s = useApp();
  const mine = s.board?.projects.find((p) =>
    p.project.org === props.org && p.project.name === props.project
  );
  if (mine?.error) return <p class="notice">The board could not be read: {mine.error}</p>;
  const rows = mine?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <table class="board" data-testid={`board-${props.project}`}>
      <tbody>
        {rows.map((r) => (
          <TaskRow row={r} project={props.project} compact={!!props.compact} key={r.task.id} />
        ))}
      </tbody>
    </table>
  );
}

function TaskRow(props: { row: BoardRow; project: string; compact: boolean }) {
  const { row: r, project } = props;
  const t = r.task;
  const c = useForge();
  const marks = Object.entries(r.marks).filter(([, on]) => on);
  return (
    <tr class={`task ${t.status}`} data-testid={`task-${t.id}`}>
      <td class="muted">{t.id}</td>
      <td>
        {r.epic_subject ? <span class="muted">{r.epic_subject} ›</span> : null}
        {t.subject}
        {t.waiting_on?.question && (
          <div class="question" data-testid="task-question">
            {t.waiting_on.asked_by ?? "someone"} asks: {t.waiting_on.question}
          </div>
        )}
      </td>
      <td>
        {props.compact ? <span class="chip">{t.status}</span> : (
          <select
            data-testid="task-status"
            value={t.status}
            onChange={(e) => {
              const to = TaskStatus.safeParse(e.currentTarget.value);
              if (to.success) c.command("task_move", { project, id: t.id, to: to.data });
            }}
          >
            {TaskStatus.options.map((o) => <option value={o} key={o}>{o}</option>)}
          </select>
        )}
      </td>
      <td class="muted">{t.owner ?? "unowned"}</td>
      <td class="muted">{r.rollup ? `${r.rollup[0]}/${r.rollup[1]}` : ""}</td>
      <td>
        {marks.map(([m]) => <span class="mark-chip" key={m}>{m.replaceAll("_", " ")}</span>)}
      </td>
      {!props.compact && (
        <td class="task-actions">
          <TaskActions row={r} project={project} />
        </td>
      )}
    </tr>
  );
}

function TaskActions(props: { row: BoardRow; project: string }) {
  const { project } = props;
  const t = props.row.task;
  const [words, setWords] = useState("");
  const [owner, setOwner] = useState(t.owner ?? "");
  const c = useForge();
  const task = { project, id: t.id };
  return (
    <>
      <button
        type="button"
        title="to the top"
        aria-label="Move to the top"
        onClick={() => c.command("task_rank", { ...task, to: "top" })}
      >
        ⤒ top
      </button>
      <button
        type="button"
        data-testid="task-up"
        title="up one"
        aria-label="Move up one"
        onClick={() => c.command("task_rank", { ...task, to: "up" })}
      >
        ↑ up
      </button>
      <button
        type="button"
        title="down one"
        aria-label="Move down one"
        onClick={() => c.command("task_rank", { ...task, to: "down" })}
      >
        ↓ down
      </button>
      <input
        class="owner"
        data-testid="task-owner"
        placeholder="owner"
        value={owner}
        onInput={(e) => setOwner(e.currentTarget.value)}
      />
      <button
        type="button"
        data-testid="task-assign"
        onClick={() => c.command("task_assign", { ...task, owner: owner.trim() || null })}
      >
        Assign
      </button>
      {(props.row.marks.in_review || props.row.marks.waiting_on_user) && (
        <input
          data-testid="task-words"
          placeholder={props.row.marks.in_review ? "what is wrong (to send back)" : "your answer"}
          value={words}
          onInput={(e) => setWords(e.currentTarget.value)}
        />
      )}
      {props.row.marks.in_review && (
        <>
          <button
            type="button"
            data-testid="task-approve"
            onClick={() =>
              c.command("task_verdict", { ...task, approve: true, words: words.trim() || null })}
          >
            Approve
          </button>
          <button
            type="button"
            data-testid="task-send-back"
            disabled={!words.trim()}
            onClick={() =>
              c.command("task_verdict", { ...task, approve: false, words: words.trim() })}
          >
            Send back
          </button>
        </>
      )}
      {props.row.marks.waiting_on_user && (
        <button
          type="button"
          data-testid="task-answer"
          disabled={!words.trim()}
          onClick={() => c.command("task_answer", { ...task, words: words.trim() })}
        >
          Answer
        </button>
      )}
    </>
  );
}

/** Re-reads the board on its slow beat while a page that draws it is on screen. */
export function useBoardBeat(): void {
  const c = useForge();
  useEffect(() => {
    const timer = setInterval(() => c.reread("board"), BEAT_MS);
    return () => clearInterval(timer);
  }, [c]);
}

/** Files a task on the project's board (the `task_create` command; the board re-reads on it). */
export function NewTask(props: { project: string }) {
  const [subject, setSubject] = useState("");
  const c = useForge();
  return (
    <form
      class="new-task"
      onSubmit={(e) => {
        e.preventDefault();
        if (!subject.trim()) return;
        c.command("task_create", {
          project: props.project,
          subject: subject.trim(),
          parent: null,
        });
        setSubject("");
      }}
    >
      <input
        data-testid={`new-task-${props.project}`}
        placeholder="New task"
        value={subject}
        onInput={(e) => setSubject(e.currentTarget.value)}
      />
    </form>
  );
}
