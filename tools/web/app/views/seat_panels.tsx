import type { SubagentInstance } from "../../../../protocol/mod.ts";
import type { SeatModel } from "../model/seat.ts";
import { mcpDrawn, type McpServer } from "../model/seat_panels.ts";
import { CallOutputDoor } from "./call_output.tsx";
import { client } from "./use.ts";

/**
 * The seat's side panels, each drawn only when it holds something: the subagents it dispatched,
 * its MCP servers, and the watches its Monitor tool runs. spec: What a subject carries > session
 * (subagent_instances, mcp, monitors).
 */
export function SeatPanels(props: { seat: SeatModel; lifecycle: string | null }) {
  const p = props.seat.panels;
  return (
    <>
      {p.cards.length > 0 && <Subagents cards={p.cards} />}
      {p.mcp && (p.mcp.servers.length > 0 || p.mcp.error || p.mcpFailed) && (
        <Mcp seat={props.seat} lifecycle={props.lifecycle} />
      )}
      {p.monitors.length > 0 && <Monitors seat={props.seat} />}
    </>
  );
}

function cardState(c: SubagentInstance): string {
  if (c.failed) return "failed";
  if (c.running) return c.backgrounded ? "running in the background" : "running";
  return "done";
}

/** One card per dispatched agent: its type, where it stands, its calls and its newest ones. */
function Subagents(props: { cards: SubagentInstance[] }) {
  const running = props.cards.filter((c) => c.running).length;
  return (
    <details class="panel subagents" data-testid="subagents" open={running > 0}>
      <summary class="muted">
        {props.cards.length} subagent{props.cards.length === 1 ? "" : "s"}
        {running > 0 ? `, ${running} running` : ""}
      </summary>
      {props.cards.map((c) => (
        <div
          class={`subagent ${cardState(c).split(" ")[0]}`}
          data-testid="subagent"
          key={c.dispatch_id}
        >
          <b>{c.name}</b> <span class="muted">{c.agent_type}</span>{" "}
          <span class="chip">{cardState(c)}</span>{" "}
          <span class="muted">
            {c.calls} call{c.calls === 1 ? "" : "s"}
            {c.usage &&
              ` · ${c.usage.total_tokens} tokens · ${(c.usage.duration_ms / 1000).toFixed(1)} s`}
          </span>
          {c.tail.length > 0 && (
            <ul>
              {c.tail.map((t, i) => (
                <li key={i}>
                  {t.name} <span class="muted">{t.title} · {t.status}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </details>
  );
}

/**
 * The CLI's MCP servers and their status, each with a reconnect and an enable/disable; a read
 * that failed, and a refused operation (mcp_operation_error), said in their words. A seat with
 * no CLI running lists them as not running; its doors stay, and forge's refusal of each (the
 * seat has no session) is said in its words like any other.
 */
function Mcp(props: { seat: SeatModel; lifecycle: string | null }) {
  const { mcpFailed } = props.seat.panels;
  const mcp = mcpDrawn(props.seat.panels.mcp!, props.lifecycle);
  const key = props.seat.slot;
  const troubled = mcp.servers.filter((s) => s.status !== "connected").length;
  const alarm = mcp.notRunning === null && (troubled > 0 || mcpFailed !== null);
  return (
    <details class="panel mcp" data-testid="mcp" open={alarm}>
      <summary class="muted">
        {mcp.servers.length} MCP server{mcp.servers.length === 1 ? "" : "s"}
        {mcp.notRunning !== null
          ? `, ${mcp.notRunning}`
          : troubled > 0
          ? `, ${troubled} not connected`
          : ""}
      </summary>
      {mcp.error && <p class="error">The servers could not be read: {mcp.error}</p>}
      {mcpFailed && (
        <p class="error" role="alert" data-testid="mcp-failed">
          {mcpFailed.server}: {mcpFailed.words}
        </p>
      )}
      <ul>
        {mcp.servers.map((s: McpServer) => (
          <li key={s.name} data-testid={`mcp-${s.name}`}>
            <b>{s.name}</b>{" "}
            <span class={`chip mcp-${s.status.replaceAll(" ", "-")}`}>{s.status}</span>{" "}
            {s.tools !== null && <span class="muted">{s.tools} tools</span>}
            {s.error && <span class="error">{s.error}</span>}
            <button
              type="button"
              onClick={() => client().command("reconnect_mcp_server", { key, server_name: s.name })}
            >
              Reconnect
            </button>
            <button
              type="button"
              onClick={() =>
                client().command("toggle_mcp_server", {
                  key,
                  server_name: s.name,
                  enabled: s.status === "disabled",
                })}
            >
              {s.status === "disabled" ? "Enable" : "Disable"}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The watches running: what each watches, its deadline, and its output on a press. */
function Monitors(props: { seat: SeatModel }) {
  const monitors = props.seat.panels.monitors;
  return (
    <details class="panel monitors" data-testid="monitors" open>
      <summary class="muted">
        {monitors.length} monitor{monitors.length === 1 ? "" : "s"}
      </summary>
      {monitors.map((m) => (
        <div class="monitor" key={m.task_id} data-testid="monitor">
          <b>{m.description}</b> <code>{m.command ?? m.url ?? m.task_id}</code>
          {m.timeout_ms !== null && (
            <span class="muted">until {Math.round(m.timeout_ms / 1000)} s</span>
          )}
          <CallOutputDoor callId={m.tool_use_id} />
        </div>
      ))}
    </details>
  );
}
