import { useEffect, useState } from "preact/hooks";
import type { Wire } from "../../../../protocol/mod.ts";
import { client, useApp } from "./use.ts";

type Obj = Record<string, Wire>;

/** spec: board - "a page holding the subject re-reads on a slow beat of its own - 30 s". */
const BEAT_MS = 30_000;

/**
 * One project's board under its home row: each task with its status, owner, rollup and the marks
 * that are set. Drawn only when the board subject has rows for the project.
 */
export function ProjectBoard(props: { org: string; project: string }) {
  const s = useApp();
  const projects = (s.board?.projects ?? []) as Obj[];
  const mine = projects.find((p) => {
    const id = p.project as Obj;
    return id.org === props.org && id.name === props.project;
  });
  const rows = (mine?.rows ?? []) as Obj[];
  if (mine?.error) return <p class="notice">The board could not be read: {String(mine.error)}</p>;
  if (rows.length === 0) return null;
  return (
    <table class="board" data-testid={`board-${props.project}`}>
      <tbody>
        {rows.map((r) => {
          const t = r.task as Obj;
          const marks = Object.entries((r.marks ?? {}) as Obj).filter(([, on]) => on === true);
          const rollup = r.rollup as number[] | null;
          return (
            <tr key={String(t.id)} class={`task ${t.status}`}>
              <td class="muted">{String(t.id)}</td>
              <td>
                {r.epic_subject ? <span class="muted">{String(r.epic_subject)} ›</span> : null}
                {String(t.subject)}
              </td>
              <td>
                <span class="chip">{String(t.status)}</span>
              </td>
              <td class="muted">{t.owner ? String(t.owner) : "unowned"}</td>
              <td class="muted">{rollup ? `${rollup[0]}/${rollup[1]}` : ""}</td>
              <td>
                {marks.map(([m]) => (
                  <span class="mark-chip" key={m}>{m.replaceAll("_", " ")}</span>
                ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Re-reads the board on its slow beat while the home is on screen. */
export function useBoardBeat(): void {
  useEffect(() => {
    const timer = setInterval(() => client().reread("board"), BEAT_MS);
    return () => clearInterval(timer);
  }, []);
}

/** Files a task on the project's board (the `task_create` command; the board re-reads on it). */
export function NewTask(props: { project: string }) {
  const [subject, setSubject] = useState("");
  return (
    <form
      class="new-task"
      onSubmit={(e) => {
        e.preventDefault();
        if (!subject.trim()) return;
        client().command("task_create", {
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
        onInput={(e) => setSubject((e.target as HTMLInputElement).value)}
      />
    </form>
  );
}
