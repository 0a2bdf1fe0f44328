import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { foldTurn, type Row, type ToolRow } from "../model/fold.ts";
import type { Turn } from "../model/seat.ts";
import { client, useApp } from "./use.ts";

/**
 * The conversation: whole turns folded by the client's own rule (model/fold.ts), the history
 * above walked with `more` as the reader scrolls up, and the foot followed while the reader is
 * there (or when the reader's own words arrive). spec: more; "the one field that tells a
 * reader's words from forge's" (source).
 */
export function Chat() {
  const s = useApp();
  const seat = s.seat!;
  const box = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const atFoot = useRef(true);
  const anchor = useRef<{ first: number; height: number } | null>(null);
  const firstId = seat.turns[0]?.id ?? 0;

  // A page prepended above keeps the reader's place: the scroll moves by what was added.
  const last = seat.turns.at(-1);
  const lastId = last?.id ?? 0;
  const lastSeen = useRef(lastId);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // The reader's own words bring a scrolled-up reader back to the foot; a delivery's do not
    // (spec: source "tells a reader's words from forge's").
    if (lastId !== lastSeen.current && last?.messages[0]?.source === "you") atFoot.current = true;
    lastSeen.current = lastId;
    const a = anchor.current;
    if (a && a.first !== firstId) el.scrollTop += el.scrollHeight - a.height;
    else if (atFoot.current) el.scrollTop = el.scrollHeight;
    anchor.current = { first: firstId, height: el.scrollHeight };
  });

  useEffect(() => {
    const el = top.current;
    if (!el) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) client().walkUp();
    }, { root: box.current, rootMargin: "200px 0px 0px 0px" });
    seen.observe(el);
    return () => seen.disconnect();
  }, [seat]);

  // Once a page lands, the sentinel may still be in view: keep walking while it is.
  useEffect(() => {
    const el = box.current;
    if (el && !s.walking && seat.cursor !== null && el.scrollTop < 200) {
      client().walkUp();
    }
  }, [s.walking, firstId]);

  return (
    <div
      class="chat"
      ref={box}
      data-testid="chat"
      onScroll={(e) => {
        const el = e.currentTarget as HTMLDivElement;
        atFoot.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      <div ref={top} class="history-edge" data-testid="history-edge">
        {seat.cursor === null
          ? <span data-testid="history-start">Start of the conversation</span>
          : (
            <span>
              {s.walking ? "Reading earlier turns…" : "Earlier turns above"}
            </span>
          )}
      </div>
      {seat.turns.map((t) => <TurnView turn={t} key={t.id} />)}
    </div>
  );
}

function TurnView(props: { turn: Turn }) {
  const rows = useMemo(() => foldTurn(props.turn.messages), [props.turn]);
  return (
    <div class="turn" data-testid="turn">
      {rows.map((r, i) => <RowView row={r} key={i} />)}
    </div>
  );
}

function RowView(props: { row: Row }) {
  const r = props.row;
  switch (r.kind) {
    case "prompt":
      return (
        <div class={`prompt source-${r.source ?? "you"}`} data-testid="prompt">
          {r.source && r.source !== "you" && <span class="source">{r.source}</span>}
          <div class="words">{r.text}</div>
        </div>
      );
    case "text":
      return (
        <div
          class={`answer${r.streaming ? " streaming" : ""}`}
          data-testid="answer"
        >
          {r.text}
        </div>
      );
    case "thinking":
      return (
        <details class="thinking">
          <summary>thinking{r.streaming ? "…" : ""}</summary>
          <div>{r.text}</div>
        </details>
      );
    case "tokens":
      return (
        <div class="tokens muted" data-testid="tokens">
          ~{r.tokens} tokens of thought
        </div>
      );
    case "tools":
      return <ToolGroup calls={r.calls} />;
    case "result":
      return (
        <div class={`result ${r.ok ? "ok" : "failed"}`} data-testid="result">
          {r.ok ? "done" : `ended: ${r.text}`}
          {r.durationMs !== null && ` · ${(r.durationMs / 1000).toFixed(1)} s`}
          {r.cost !== null && ` · $${r.cost.toFixed(4)}`}
        </div>
      );
  }
}

function ToolGroup(props: { calls: ToolRow[] }) {
  const calls = props.calls;
  const open = calls.some((c) => c.result === null);
  return (
    <details class="tools" open={open} data-testid="tools">
      <summary>
        {calls.length === 1 ? calls[0].name : `${calls.length} tool calls`}
        {open ? " · running" : ""}
      </summary>
      {calls.map((c) => (
        <div class="tool" key={c.id} data-testid="tool">
          <div class="tool-head">
            <b>{c.name}</b> <code>{summary(c.input)}</code>
          </div>
          {c.result && (
            <pre
              class={c.result.isError ? "tool-out error" : "tool-out"}
              data-testid="tool-out"
            >
              {c.result.text || "(no output)"}
            </pre>
          )}
        </div>
      ))}
    </details>
  );
}

function summary(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const o = input as Record<string, unknown>;
  const main = o.command ?? o.file_path ?? o.path ?? o.pattern ?? o.url ??
    o.description;
  return typeof main === "string" ? main : JSON.stringify(input).slice(0, 120);
}
