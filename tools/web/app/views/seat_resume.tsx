import { useState } from "preact/hooks";
import {
  type CatalogRow,
  ListSessionsReply,
  type SessionListEntry,
  wireTimeMs,
} from "../../../../protocol/mod.ts";
import { narrow } from "../net/narrow.ts";
import type { SeatModel } from "../model/seat.ts";
import { earlierSessions, resumeCommand } from "../model/seat_resume.ts";
import { useApp, useForge } from "./use.ts";

/**
 * The seat's earlier conversations, to take one up again (spec: resume_session; the list is the
 * home's project.sessions). Opened, it asks forge what to call each (list_sessions, forge's
 * extension: a /rename title, the CLI's own, or the first prompt); until that answers, or if it
 * cannot, a row is its time and id. A resume ends the conversation the seat holds, so it asks
 * once, as New conversation does; the page reads the seat again when session_replaced says it
 * moved.
 */
export function SeatResume(props: { seat: SeatModel }) {
  const s = useApp();
  const c = useForge();
  const [asking, setAsking] = useState<string | null>(null);
  const [names, setNames] = useState<ReadonlyMap<string, SessionListEntry>>(new Map());
  const { seat } = props;
  const rows = earlierSessions(
    s.home?.projects ?? [],
    seat.slot,
    seat.record?.header.session_id ?? null,
  );
  if (rows.length === 0 || s.link !== "open") return null;
  const resume = (row: CatalogRow) => {
    setAsking(null);
    c.send({ kind: "command", command: resumeCommand(seat.slot, row) });
  };
  const opened = (e: Event) => {
    if (!(e.currentTarget as HTMLDetailsElement).open) return;
    c.commandReply("list_sessions", { key: seat.slot }).then((body) => {
      const read = narrow(ListSessionsReply, "list_sessions' reply", body);
      if (read.ok) setNames(new Map(read.data.sessions.map((s) => [s.session_id, s])));
    }, () => {/* Unnamed rows still resume: each keeps its time and id. */});
  };
  return (
    <details class="resume" data-testid="resume" onToggle={opened}>
      <summary>Earlier conversations ({rows.length})</summary>
      <ul>
        {rows.map((r) => (
          <li key={r.session_id} data-testid={`resume-${r.session_id}`}>
            {names.get(r.session_id)?.summary &&
              <span class="resume-name">{names.get(r.session_id)!.summary}</span>}
            <span class="muted">{when(r)}</span>{" "}
            <code class="muted">{r.session_id.slice(0, 8)}</code> {asking === r.session_id
              ? (
                <span class="asking" role="group">
                  End this conversation and resume that one?
                  <button
                    type="button"
                    data-testid="resume-yes"
                    onClick={() => resume(r)}
                  >
                    Resume
                  </button>
                  <button type="button" onClick={() => setAsking(null)}>Keep it</button>
                </span>
              )
              : (
                <button
                  type="button"
                  data-testid="resume-pick"
                  onClick={() => setAsking(r.session_id)}
                >
                  Resume
                </button>
              )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The transcript's last write, in the reader's own words for a date. */
function when(row: CatalogRow): string {
  return new Date(wireTimeMs(row.last_activity)).toLocaleString();
}
