import { useEffect, useRef, useState } from "preact/hooks";
import type { ConnectorSets, CronEntry } from "../../../../protocol/mod.ts";
import { connectorWords } from "./home_news.ts";
import { readWhen } from "./schedule_when.ts";
import { NewTask, ProjectBoard, useBoardBeat } from "./board.tsx";
import { client, useApp } from "./use.ts";
import { ReadRefused } from "./read_refused.tsx";
import { Said } from "../draw/said.tsx";

const when = (iso: string | null) => iso ? new Date(iso).toLocaleString() : "never";

/**
 * The whole board: every project's tasks with their actions, its schedules (next fire, last
 * error, made and removed here) and its connector subscriptions, with the connectors' liveness
 * and their own errors from the home. spec: What a subject carries > board; home > connectors.
 */
export function BoardPage() {
  const s = useApp();
  useBoardBeat();
  if (!s.board && s.refusedReads.board) {
    return <ReadRefused subject="board" page="board" testId="board-refused" />;
  }
  if (!s.board) return <p class="muted">Reading the board…</p>;
  const live = s.home?.connectors;
  return (
    <div class="board-page" data-testid="board-page">
      <header class="page-head">
        <h1>Board</h1>
        {live && <span class="muted" data-testid="connector-liveness">{connectorWords(live)}</span>}
      </header>
      {s.board.projects.map((p) => (
        <section class="project" key={`${p.project.org}/${p.project.name}`}>
          <h2>
            {p.project.name} <span class="muted">{p.project.org}</span>
          </h2>
          <ProjectBoard org={p.project.org} project={p.project.name} />
          <NewTask project={p.project.name} />
          <Schedules project={p.project.name} crons={p.crons} />
          <Subscriptions project={p.project.name} sets={p.connectors} />
        </section>
      ))}
    </div>
  );
}

function Schedules(props: { project: string; crons: CronEntry[] }) {
  const { project } = props;
  const [prompt, setPrompt] = useState("");
  const [cron, setCron] = useState("");
  const [description, setDescription] = useState("");
  // What the page itself refuses (a day the calendar lacks), said under the form.
  const [refused, setRefused] = useState<string | null>(null);
  const create = () => {
    const when = readWhen(cron);
    setRefused(when.ok ? null : when.why);
    if (!when.ok) return;
    client().command("cron_create", {
      project,
      prompt: prompt.trim(),
      schedule: when.schedule,
      run_once_at: when.run_once_at,
      description: description.trim() || null,
    });
  };
  // The form empties once a new schedule is listed; a refused one keeps its words for a fix.
  const count = useRef(props.crons.length);
  useEffect(() => {
    if (props.crons.length > count.current) {
      setPrompt("");
      setCron("");
      setDescription("");
    }
    count.current = props.crons.length;
  }, [props.crons.length]);
  return (
    <div class="schedules" data-testid={`schedules-${project}`}>
      <h3>Schedules</h3>
      {props.crons.length === 0 && <p class="muted">No schedules.</p>}
      <ul>
        {props.crons.map((c) => (
          <li key={c.id} data-testid={`cron-${c.id}`}>
            <b>{c.description ?? c.prompt}</b>{" "}
            <code>
              {"recurring" in c.schedule ? c.schedule.recurring : `once ${c.schedule.once_at}`}
            </code>
            <span class="muted" data-testid="cron-next">next {when(c.next_fire)}</span>
            <span class="muted">· last {when(c.last_fired)}</span>
            <span class="muted">· by {c.created_by}</span>
            {c.last_error && <span class="reason" data-testid="cron-error">{c.last_error}</span>}
            <button
              type="button"
              data-testid="cron-delete"
              onClick={() => client().command("cron_delete", { project, id: c.id })}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <form
        class="new-cron"
        onSubmit={(e) => {
          e.preventDefault();
          if (prompt.trim() && cron.trim()) create();
        }}
      >
        <input
          data-testid="cron-prompt"
          placeholder="prompt to deliver"
          value={prompt}
          onInput={(e) => setPrompt(e.currentTarget.value)}
        />
        <input
          data-testid="cron-when"
          placeholder="*/30 * * * * or 2027-01-01T09:00"
          // Room for the whole placeholder: the default 20 characters cut it off.
          size={34}
          value={cron}
          onInput={(e) => setCron(e.currentTarget.value)}
        />
        <input
          data-testid="cron-description"
          placeholder="name (optional)"
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
        <button type="submit" data-testid="cron-create">Schedule</button>
      </form>
      {refused && (
        <p class="reason" role="alert" data-testid="cron-refused">
          <Said text={refused} />
        </p>
      )}
    </div>
  );
}

function Subscriptions(props: { project: string; sets: ConnectorSets }) {
  const { gotify, slack } = props.sets;
  return (
    <div class="subscriptions" data-testid={`subscriptions-${props.project}`}>
      <h3>Connector subscriptions</h3>
      {gotify.length + slack.length === 0 && <p class="muted">None.</p>}
      <ul>
        {gotify.map((g) => (
          <li key={g.id} data-testid="sub-gotify">
            Gotify → {g.owner}: {g.applications.length ? g.applications.join(", ") : "every app"}
            {" "}
            at priority ≥ {g.min_priority}
          </li>
        ))}
        {slack.map((sub) => (
          <li key={sub.id} data-testid="sub-slack">
            Slack {sub.workspace} → {sub.owner}: {[
              sub.direct_messages && "direct messages",
              sub.mentions && "mentions",
              ...sub.conversations.map((c) => `${c.id} (${c.mode})`),
            ].filter(Boolean).join(", ") || "nothing"}
          </li>
        ))}
      </ul>
    </div>
  );
}
