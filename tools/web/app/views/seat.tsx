import type { Wire } from "../../../../protocol/mod.ts";
import { PermissionMode } from "../../../../protocol/mod.ts";
import { BrowserPage } from "./browser.tsx";
import { Chat } from "./chat.tsx";
import { Composer } from "./composer.tsx";
import { Dock } from "./dock.tsx";
import { ReviewPage } from "./review.tsx";
import { TerminalPage } from "./terminal.tsx";
import type { SeatTab } from "./app.tsx";
import { client, useApp } from "./use.ts";

type Obj = Record<string, Wire>;

/** One seat: its header and pickers, then the conversation, review, terminal or browser tab. */
export function SeatPage(props: { name: string; tab: SeatTab }) {
  const s = useApp();
  const seat = s.seat;
  if (s.seatError) {
    return <div class="notice" data-testid="seat-error">{s.seatError}</div>;
  }
  if (
    !seat ||
    seat.nextSeq === null && seat.turns.length === 0 && !seat.record.header
  ) {
    return <p class="muted">Reading {props.name}…</p>;
  }
  const header = seat.header;
  const key = seat.slot;
  const models = (header.available_models ?? []) as Obj[];
  // header.model is the CurrentModel object (protocol/session.ts); an init frame's bare id too.
  const model = typeof header.model === "string"
    ? header.model
    : (((header.model as Obj | null)?.catalog_id ?? (header.model as Obj | null)?.resolved_id) as
      | string
      | undefined) ?? null;
  const base = `#/seat/${props.name}`;
  const tasks = (seat.record.background_tasks ?? []) as Obj[];
  const row = ((s.home?.agents ?? []) as Obj[]).find((a) => {
    const slot = a.slot as Obj;
    return slot.org === key.org && slot.project === key.project && slot.label === key.label;
  });
  // The seat's own stream is fresher than the home row a read ago: an ask or a turn in flight
  // says so at once (the home's rule: asks first, then the turn).
  const lifecycle = seat.asks.length > 0
    ? "Attention"
    : header.turn_in_flight === true
    ? "Running"
    : row
    ? String(row.lifecycle)
    : null;
  return (
    <div class="seat" data-testid="seat">
      <header class="page-head seat-head">
        <h1>{props.name}</h1>
        {lifecycle && <span class={`lifecycle ${lifecycle.toLowerCase()}`}>{lifecycle}</span>}
        {lifecycle === "Sleeping" && key.label === "lead" && (
          <button
            type="button"
            data-testid="seat-start"
            onClick={() =>
              client().command("spawn_project", { project_name: key.project, launch_settings: {} })}
          >
            Start
          </button>
        )}
        <span
          class={`busy ${header.turn_in_flight ? "on" : ""}`}
          data-testid="turn-state"
        >
          {header.turn_in_flight ? "working" : "idle"}
        </span>
        <label>
          model{" "}
          <select
            value={String(model ?? "")}
            onChange={(e) =>
              client().command("set_model", {
                key,
                model: (e.target as HTMLSelectElement).value,
              })}
          >
            {model && !models.some((m) => m.id === model) && (
              <option value={String(model)}>
                {String(model)}
              </option>
            )}
            {models.map((m) => (
              <option value={String(m.id)} key={String(m.id)}>
                {String(m.display_name ?? m.id)}
              </option>
            ))}
          </select>
        </label>
        <label>
          mode{" "}
          <select
            value={String(header.permission_mode ?? "default")}
            onChange={(e) =>
              client().command("set_mode", {
                key,
                mode: (e.target as HTMLSelectElement).value,
              })}
          >
            {PermissionMode.options.map((m) => <option value={m} key={m}>{m}</option>)}
          </select>
        </label>
        <nav class="tabs">
          <a href={base} class={props.tab === "chat" ? "on" : ""}>
            Conversation
          </a>
          <a href={`${base}/review`} class={props.tab === "review" ? "on" : ""}>
            Review
          </a>
          <a
            href={`${base}/terminal`}
            class={props.tab === "terminal" ? "on" : ""}
          >
            Terminal
          </a>
          <a href={`${base}/browser`} class={props.tab === "browser" ? "on" : ""}>
            Browser
          </a>
        </nav>
      </header>
      {tasks.length > 0 && (
        <div class="tasks" data-testid="background-tasks">
          {tasks.map((t) => (
            <span class="chip" key={String(t.task_id ?? t.id)}>
              ⟳ {String(t.description ?? t.command ?? t.task_id)}
            </span>
          ))}
        </div>
      )}
      <Processes tree={seat.record.processes} />
      {props.tab === "chat" && (
        <>
          <Chat />
          <Dock />
          <Composer />
        </>
      )}
      {props.tab === "review" && <ReviewPage />}
      {props.tab === "terminal" && <TerminalPage />}
      {props.tab === "browser" && <BrowserPage />}
    </div>
  );
}

/** The seat's process tree, walked once a second while a page holds the seat (spec:
 * session > processes); null until something walked it. */
function Processes(props: { tree: Wire | undefined }) {
  const rows = ((props.tree as Obj | null)?.processes ?? []) as Obj[];
  if (rows.length === 0) return null;
  return (
    <details class="processes" data-testid="processes">
      <summary class="muted">{rows.length} process{rows.length === 1 ? "" : "es"}</summary>
      <ul>
        {rows.map((r) => (
          <li key={String(r.pid)}>
            <code>{String(r.pid)}</code> {String(r.command)}
          </li>
        ))}
      </ul>
    </details>
  );
}
