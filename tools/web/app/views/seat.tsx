import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { PermissionMode, sameSlot } from "../../../../protocol/mod.ts";
import type { SeatModel } from "../model/seat.ts";
import { headLifecycle } from "../model/seat_controls.ts";
import { BrowserPage } from "./browser.tsx";
import { Composer } from "./composer.tsx";
import { Dock } from "./dock.tsx";
import { lazy } from "./lazy.tsx";
import { SeatAccount, SeatLogin, SeatNotices } from "./seat_account.tsx";
import { lifecycleWords } from "./lifecycle_words.ts";
import { SeatControls, SeatFailure } from "./seat_controls.tsx";
import { SeatPanels } from "./seat_panels.tsx";
import { SeatResume } from "./seat_resume.tsx";

import type { SeatTab } from "./route.ts";
import { client, forges, pageHref, useApp } from "./use.ts";
import { VoiceSwitch } from "./voice.tsx";
import { Workers } from "./workers.tsx";

// The heavy parts of a seat load on first use (views/lazy.tsx): the conversation's drawing, the
// review's highlighted diffs and the terminal's xterm.js.
const Chat = lazy(() => import("./chat.tsx").then((m) => m.Chat));
const ReviewPage = lazy(() => import("./review.tsx").then((m) => m.ReviewPage));
const TerminalPage = lazy(() => import("./terminal.tsx").then((m) => m.TerminalPage));

/** One seat: its header and pickers, then the conversation, review, terminal or browser tab. */
export function SeatPage(props: { name: string; tab: SeatTab }) {
  const s = useApp();
  // On a phone the seat's controls and its lists fold away behind More (styles/phone.css).
  const [more, setMore] = useState(false);
  const seat = s.seat;
  if (s.seatError) {
    return <div class="notice" data-testid="seat-error">{s.seatError}</div>;
  }
  if (!seat || !seat.record) return <p class="muted">Reading {props.name}…</p>;
  const key = seat.slot;
  const row = s.home?.agents.find((a) => sameSlot(a.slot, key));
  const lifecycle = headLifecycle(row?.lifecycle ?? null, {
    asking: seat.asks.length > 0,
    turnInFlight: seat.turnInFlight,
  });
  const c = client();
  const several = forges().list.length > 1;
  const base = pageHref(c, `seat/${props.name}`);
  const tab = (id: SeatTab, label: string) => (
    <a href={id === "chat" ? base : `${base}/${id}`} class={props.tab === id ? "on" : ""}>
      {label}
    </a>
  );
  return (
    <div class={`seat${more ? " more" : ""}`} data-testid="seat">
      <header class="page-head seat-head">
        {/* A phone wraps a long name at its slashes rather than cut it (styles/phone.css). */}
        <h1>
          {props.name.split("/").map((part, i) => (
            <Fragment key={i}>
              {i > 0 && (
                <>
                  /<wbr />
                </>
              )}
              {part}
            </Fragment>
          ))}
        </h1>
        {several && <span class="chip forge-host" data-testid="seat-forge">{c.host}</span>}
        {lifecycle && (
          <span class={`lifecycle ${lifecycle.toLowerCase()}`} data-testid="seat-lifecycle">
            {lifecycleWords(lifecycle)}
          </span>
        )}
        <SeatControls seat={seat} lifecycle={lifecycle} which="start" />
        {
          /* A turn in flight is said. A seat with none says no more than its chip: "idle" beside
            Sleeping, Failed or Needs a login read as a word about the press before it. */
        }
        {seat.turnInFlight && <span class="busy on" data-testid="turn-state">working</span>}
        {seat.compacting && (
          <span class="busy on" role="status" data-testid="compacting">
            compacting the conversation…
          </span>
        )}
        <button
          type="button"
          class="seat-more"
          data-testid="seat-more"
          aria-expanded={more}
          onClick={() => setMore(!more)}
        >
          {more ? "Less" : "More"}
        </button>
        <div class="seat-controls">
          <SeatControls seat={seat} lifecycle={lifecycle} which="ends" />
          <SeatResume seat={seat} />
          <SeatAccount seat={seat} />
          <Pickers seat={seat} />
          <VoiceSwitch seat={seat} />
        </div>
        <nav class="tabs">
          {tab("chat", "Conversation")}
          {tab("review", "Review")}
          {tab("terminal", "Terminal")}
          {tab("browser", "Browser")}
        </nav>
      </header>
      <SeatFailure seat={seat} lifecycle={lifecycle} reason={row?.reason ?? undefined} />
      {lifecycle === "LoggedOut" && <SeatLogin seat={seat} />}
      <SeatNotices seat={seat} />
      {seat.backgroundTasks.length > 0 && (
        <div class="tasks" data-testid="background-tasks">
          {seat.backgroundTasks.map((t, i) => (
            <span class="chip" key={String(t.task_id ?? i)}>
              ⟳ {String(t.description ?? t.command ?? t.task_id)}
            </span>
          ))}
        </div>
      )}
      <Processes seat={seat} />
      <SeatPanels seat={seat} lifecycle={lifecycle} />
      {key.label === "lead" && <Workers lead={key} />}
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

/** The model and permission-mode pickers (set_model, set_mode). */
function Pickers(props: { seat: SeatModel }) {
  const { seat } = props;
  const key = seat.slot;
  const models = seat.record?.header.available_models ?? [];
  const model = seat.model;
  // The seat names its model by catalogue id, by the id the alias resolves to, or (in the
  // CLI's init frame) by that bare id: each picks the catalogue's row, drawn by its name.
  const row = models.find((m) => m.id === model || (model !== null && m.resolved_model === model));
  const current = seat.record?.header.model ?? null;
  const ownName = current && (model === current.catalog_id || model === current.resolved_id)
    ? current.display_name_short
    : model;
  return (
    <>
      <label>
        model{" "}
        <select
          value={row?.id ?? model ?? ""}
          data-testid="model-picker"
          onChange={(e) => client().command("set_model", { key, model: e.currentTarget.value })}
        >
          {model && !row && <option value={model}>{ownName}</option>}
          {models.map((m) => <option value={m.id} key={m.id}>{m.display_name}</option>)}
        </select>
      </label>
      <label>
        mode{" "}
        <select
          value={seat.permissionMode ?? "default"}
          onChange={(e) => {
            const mode = PermissionMode.safeParse(e.currentTarget.value);
            if (mode.success) client().command("set_mode", { key, mode: mode.data });
          }}
        >
          {PermissionMode.options.map((m) => <option value={m} key={m}>{m}</option>)}
        </select>
      </label>
    </>
  );
}

/** The seat's process tree, walked once a second while a page holds the seat (spec:
 * session > processes); null until something walked it. */
function Processes(props: { seat: SeatModel }) {
  const rows = props.seat.processes?.processes ?? [];
  if (rows.length === 0) return null;
  return (
    <details class="processes" data-testid="processes">
      <summary class="muted">{rows.length} process{rows.length === 1 ? "" : "es"}</summary>
      <ul>
        {rows.map((r) => (
          <li key={r.pid}>
            <code>{r.pid}</code> {r.command}
          </li>
        ))}
      </ul>
    </details>
  );
}
