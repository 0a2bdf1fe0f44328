import { useMemo } from "preact/hooks";
import { Markdown } from "../draw/code.tsx";
import { ToolCall } from "../draw/tool_call.tsx";
import { foldTurn, type Row, type ToolRow } from "../model/fold.ts";
import type { Turn } from "../model/seat.ts";
import { CallOutputDoor, streamsOutput } from "./call_output.tsx";
import { useApp } from "./use.ts";

/**
 * One turn, folded by the client's own rule (model/fold.ts): prompts as the reader's words (or a
 * delivery's, labelled by its source), the model's answers as rendered markdown, tool calls as
 * what they did, and the turn's ending. spec: "Two representations of one conversation cross".
 */
export function TurnView(props: { turn: Turn }) {
  const rows = useMemo(() => foldTurn(props.turn.messages), [props.turn]);
  return (
    <div class="turn" data-testid="turn">
      {rows.map((r, i) => <RowView row={r} key={i} said={saidAbove(rows, i)} />)}
    </div>
  );
}

/**
 * Whether a failed result's words are the answer just above it: the CLI ends a turn it could
 * not run ("Not logged in · Please run /login", an API error) with an answer and a result of the
 * same words, which the result line need not say again.
 */
function saidAbove(rows: Row[], i: number): boolean {
  const r = rows[i];
  const above = rows[i - 1];
  return r.kind === "result" && !r.ok && above?.kind === "text" &&
    above.text.trim() === r.text.trim();
}

function RowView(props: { row: Row; said: boolean }) {
  const r = props.row;
  const seat = useApp().seat;
  switch (r.kind) {
    case "prompt": {
      // A fired prompt names its schedule (spec: page > cron_names; cron_prompt_appended).
      const schedule = r.source === "cron" && r.uuid ? seat?.cronNames.get(r.uuid) : undefined;
      return (
        <div class={`prompt source-${r.source ?? "you"}`} data-testid="prompt">
          {r.source && r.source !== "you" && <span class="source">{r.source}</span>}
          {schedule && <span class="cron-name" data-testid="cron-name">{schedule}</span>}
          <div class="words">{r.text}</div>
          {r.images.length > 0 && (
            <div class="prompt-images" data-testid="prompt-images">
              {r.images.map((src, i) => <img src={src} alt={`image ${i + 1}`} key={i} />)}
            </div>
          )}
        </div>
      );
    }
    case "text":
      return (
        <Markdown
          text={r.text}
          class={`answer${r.streaming ? " streaming" : ""}`}
          testid="answer"
        />
      );
    case "thinking":
      return (
        <details class="thinking">
          <summary>thinking{r.streaming ? "…" : ""}</summary>
          <div>{r.text}</div>
        </details>
      );
    case "tokens":
      return <div class="tokens muted" data-testid="tokens">~{r.tokens} tokens of thought</div>;
    case "tools":
      return <ToolGroup calls={r.calls} />;
    case "result":
      return (
        <div class={`result ${r.ok ? "ok" : "failed"}`} data-testid="result">
          {r.ok ? "done" : props.said ? "ended" : `ended: ${r.text}`}
          {r.durationMs !== null && ` · ${(r.durationMs / 1000).toFixed(1)} s`}
          {r.cost !== null && ` · $${r.cost.toFixed(4)}`}
        </div>
      );
  }
}

function ToolGroup(props: { calls: ToolRow[] }) {
  const calls = props.calls;
  const running = calls.some((c) => c.result === null);
  const seat = useApp().seat;
  return (
    <details class="tools" open data-testid="tools">
      <summary>
        {calls.length === 1 ? calls[0].name : `${calls.length} tool calls`}
        {running ? " · running" : ""}
      </summary>
      {calls.map((c) => (
        <ToolCall call={c} key={c.id}>
          {seat && streamsOutput(seat, c) && <CallOutputDoor callId={c.id} />}
        </ToolCall>
      ))}
    </details>
  );
}
