import { z } from "zod";
import type { Monitor, SubagentInstance, Wire } from "../../../../protocol/mod.ts";
import type { Session } from "../net/narrow.ts";
import type { KnownUpdate } from "../net/updates.ts";

/**
 * A call's own output as the page draws it: its newest lines, why there are none, or this page's
 * words for an answer off its shape. spec: What a client sends > read_call_output.
 */
export type CallOutput =
  | { state: "asked" }
  | { state: "read"; path: string; lines: string[]; truncated: boolean }
  | { state: "none"; words: string };

/** `call_output`'s `output`, tagged on state (protocol/updates_seat.ts says the two shapes). */
const OutputRead = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("read"),
    path: z.string(),
    lines: z.array(z.string()),
    truncated: z.boolean(),
  }),
  z.object({ state: z.literal("none"), reason: z.string() }),
]);

/** Why a call has no output, as a person reads it; a reason this build does not know, as sent. */
export function noOutputWords(reason: string): string {
  return reason === "no-path"
    ? "no output file: the call streamed none, or it is gone"
    : `no output: ${reason}`;
}

/** Reads one `call_output` answer. Never throws. */
export function readCallOutput(output: Record<string, Wire>): CallOutput {
  const read = OutputRead.safeParse(output);
  if (!read.success) return { state: "none", words: "forge's answer was not an output read" };
  const d = read.data;
  return d.state === "read" ? d : { state: "none", words: noOutputWords(d.reason) };
}

/** One MCP server as the CLI's `mcp_status` wrote it: the fields the panel draws. */
export interface McpServer {
  name: string;
  status: string;
  tools: number | null;
  error: string | null;
}

const McpRow = z.object({
  name: z.string(),
  status: z.string(),
  tools: z.array(z.json()).optional(),
  error: z.string().optional(),
}).loose();

/** The CLI's rows, each read for the fields drawn; a row without a name and status is skipped. */
export function mcpServers(rows: Wire[]): McpServer[] {
  return rows.flatMap((raw) => {
    const r = McpRow.safeParse(raw);
    if (!r.success) return [];
    return [{
      name: r.data.name,
      status: r.data.status,
      tools: r.data.tools?.length ?? null,
      error: r.data.error ?? null,
    }];
  });
}

/**
 * The lifecycles with no CLI behind the seat (home > agents > lifecycle), each with why its
 * servers are not running: an MCP server is the CLI's child (its `--mcp-config`), so none runs
 * while the CLI does not, whatever its last `mcp_status` said. forge keeps the last report in the
 * record (spec: session > mcp: "The session's MCP servers"), so the page says what is true now.
 */
const NO_CLI: Record<string, string> = {
  Sleeping: "not running while the seat sleeps",
  Failed: "not running: the seat's CLI stopped when it failed",
  Spawning: "not running yet: the seat's CLI is starting",
};

/** The MCP panel as drawn: the servers and their status now, and why none runs (else null). */
export interface McpDrawn {
  servers: McpServer[];
  /** The last read's failure, while a CLI runs to have been read. */
  error: string | null;
  notRunning: string | null;
}

/**
 * What the panel draws of the servers last reported, under the seat's lifecycle: with no CLI
 * running, each server is listed as not running (its last status, tool count and error were the
 * gone CLI's), and the last read's failure is not said.
 */
export function mcpDrawn(
  mcp: { servers: McpServer[]; error: string | null },
  lifecycle: string | null,
): McpDrawn {
  const notRunning = lifecycle === null ? null : NO_CLI[lifecycle] ?? null;
  if (notRunning === null) return { ...mcp, notRunning };
  const servers = mcp.servers.map((s) => ({
    ...s,
    status: "not running",
    tools: null,
    error: null,
  }));
  return { servers, error: null, notRunning };
}

/**
 * The seat's side panels: its subagent cards, its MCP servers (or why they could not be read)
 * and the last refused MCP operation, its monitors, and the call outputs this page asked for.
 * spec: What a subject carries > session (subagent_instances, mcp, monitors); the updates that
 * move each (subagent_cards_changed, mcp_snapshot, mcp_operation_error, monitors_changed) and
 * read_call_output's answer (call_output).
 */
export class SeatPanels {
  cards: SubagentInstance[] = [];
  mcp: { servers: McpServer[]; error: string | null } | null = null;
  mcpFailed: { server: string; words: string } | null = null;
  monitors: z.infer<typeof Monitor>[] = [];
  outputs = new Map<string, CallOutput>();

  /** The snapshot's rows replace what was held; the outputs asked for stay. */
  take(d: Session): void {
    this.cards = d.subagent_instances;
    this.mcp = d.mcp && { servers: mcpServers(d.mcp.servers), error: d.mcp.error };
    this.monitors = d.monitors;
  }

  /** A question this page sent: its answer is out until `call_output` comes back. */
  asked(callId: string): void {
    this.outputs = new Map(this.outputs).set(callId, { state: "asked" });
  }

  /** Applies one update; true when it was one of the panels'. */
  apply(u: KnownUpdate): boolean {
    switch (u.name) {
      case "subagent_cards_changed":
        this.cards = u.fields.cards;
        return true;
      case "mcp_snapshot":
        this.mcp = { servers: mcpServers(u.fields.servers), error: u.fields.error };
        this.mcpFailed = null;
        return true;
      case "mcp_operation_error": {
        const e = u.fields.error;
        this.mcpFailed = { server: e.server_name, words: `${e.operation}: ${e.message}` };
        return true;
      }
      case "monitors_changed":
        this.monitors = u.fields.monitors;
        return true;
      case "call_output":
        this.outputs = new Map(this.outputs).set(u.fields.call_id, readCallOutput(u.fields.output));
        return true;
      default:
        return false;
    }
  }
}
