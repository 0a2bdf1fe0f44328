import type { SeatEmit, Wire } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import type { ClaudeProcess } from "../claude/mod.ts";
import type { SeatState } from "./seat_state.ts";

/** The original's context-probe bounds: one reading a minute per seat, none at 500k tokens. */
const PROBE_MIN_INTERVAL_MS = 60_000;
const PROBE_TOKEN_GATE = 500_000;

/** What the reads need of their seat. */
export interface ReadsHost {
  readonly name: string;
  readonly log: Logger;
  /** The occupant's state (its context reading and MCP snapshot land there). */
  state(): SeatState;
  /** Whether this occupant is still the seat's, and live. */
  live(): boolean;
  emit: SeatEmit;
}

/**
 * The readings one occupant is asked for: its context usage (spec: session > header; at most
 * one a minute unless forced, none past the token gate) and its MCP snapshot (once). The answers
 * land in the seat's state and as `context_usage_snapshot` / `mcp_snapshot` updates.
 */
export class OccupantReads {
  #lastProbe = -Infinity;
  #probing = false;
  #mcpAsked = false;
  #lastInit: string | null = null;

  constructor(private readonly proc: ClaudeProcess, private readonly host: ReadsHost) {}

  /** Asks for a context reading (a turn ended, a compaction settled); `force` skips the minute. */
  probe(force: boolean): void {
    if (!this.host.live() || this.#probing) return;
    const now = performance.now();
    if (!force && now - this.#lastProbe < PROBE_MIN_INTERVAL_MS) return;
    const state = this.host.state();
    if (state.contextTokens >= PROBE_TOKEN_GATE) return;
    this.#probing = true;
    this.#lastProbe = now;
    // 'summary' answers from the last usage and local estimates, without count_tokens calls.
    this.proc.request("get_context_usage", { detail: "summary" }, 15_000).then((res) => {
      if (!this.host.live()) return;
      const percent = typeof res.percentage === "number" ? Math.round(res.percentage) : null;
      const max = typeof res.maxTokens === "number" ? res.maxTokens : null;
      state.context = { percent, max_tokens: max };
      state.contextTokens = typeof res.totalTokens === "number" ? res.totalTokens : 0;
      this.host.emit("context_usage_snapshot", { percentage: percent, max_tokens: max });
    }).catch((err) =>
      this.host.log.debug("seat_context_probe_failed", { seat: this.host.name, error: err })
    ).finally(() => this.#probing = false);
  }

  /** spec: session > header, mcp: a read of a seat with no context reading or MCP snapshot
   * asks the CLI for them (once each per occupant). */
  askForReads(): void {
    if (this.host.state().context.percent === null && !Number.isFinite(this.#lastProbe)) {
      this.probe(true);
    }
    if (!this.#mcpAsked) this.readMcp();
  }

  /**
   * A turn's `system/init` names the MCP servers' status and the tools: when those moved since
   * the last snapshot (forge's server finished its handshake, a list_changed), it is read again.
   */
  sawInit(frame: { mcp_servers?: unknown; tools?: unknown }): void {
    const tools = Array.isArray(frame.tools)
      ? frame.tools.filter((t) => String(t).startsWith("mcp__"))
      : [];
    const seen = JSON.stringify([frame.mcp_servers ?? null, tools]);
    if (this.#lastInit !== null && seen !== this.#lastInit) this.readMcp();
    else if (this.#lastInit === null && this.#mcpAsked) this.readMcp();
    this.#lastInit = seen;
  }

  /** Asks for the MCP snapshot now (after an MCP operation): lands as `mcp_snapshot`. */
  readMcp(): void {
    this.#mcpAsked = true;
    const state = this.host.state();
    this.proc.mcpStatus().then((res) => {
      const servers = Array.isArray(res.mcpServers) ? res.mcpServers as Wire[] : [];
      state.mcp = { servers, error: null };
      this.host.emit("mcp_snapshot", { servers, error: null });
    }).catch((err) => {
      state.mcp = { servers: [], error: err.message };
      this.host.emit("mcp_snapshot", { servers: [], error: err.message });
    });
  }
}
