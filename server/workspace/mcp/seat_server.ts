import {
  CallToolRequestSchema,
  type CallToolResult,
  CancelledNotificationSchema,
  ErrorCode,
  InitializeRequestSchema,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  type ListToolsResult,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_FAMILIES } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import { Refusal, type ToolCall, type ToolResult } from "../../subsystem.ts";
import { isEngineError } from "../../words.ts";
import { isJsonObject, type JsonObject } from "../claude/mod.ts";
import type { SeatInfo } from "../workspace.ts";
import { listEntry, parseInput, roleOf, type ToolEntry } from "./catalog.ts";

/** The families a worker's `mcp_families` chooses among (the original's selectable ones). */
const SELECTABLE_FAMILIES: ReadonlySet<string> = new Set(MCP_FAMILIES);

/** forge's MCP server as the CLI knows it. */
export const SERVER_NAME = "forge";
const SERVER_VERSION = "1.0.0";

/**
 * MCP lifecycle > Version negotiation: a server answers the version the client requested when
 * it supports it, and otherwise the latest it supports - never the client's string echoed. The
 * supported set is the pinned SDK's (`@modelcontextprotocol/sdk`), so it moves with the pin.
 */
export function negotiateVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** Why forge aborted a call's signal: the ending its parked ask ends with (held.ts `endingOf`). */
export class CallEnded extends Error {
  constructor(readonly ending: "cancelled" | "session_ended", why: string) {
    super(why);
    this.name = "CallEnded";
  }
}

/**
 * forge's MCP server for one occupant of one seat, spoken over the CLI's control protocol
 * (`control_request {subtype: "mcp_message", server_name, message}`, measured against the CLI).
 * Every request is answered at once except `tools/call`, which stays pending while its handler runs
 * (a parked ask may take a day): the driver answers each control request on its own, so a pending
 * call blocks nothing else. `notifications/cancelled {requestId}` - the CLI's only cancel for a
 * call (an interrupt, its hard timeout) - aborts that call's signal, keyed by the JSON-RPC id.
 */
export class SeatToolServer {
  #calls = new Map<string, AbortController>();
  /** The tool names the CLI last listed: a reload that changes them announces list_changed. */
  listed: string[] | null = null;
  #ended: CallEnded | null = null;

  constructor(
    private readonly seat: SeatInfo,
    private readonly tools: () => ToolEntry[],
    private readonly log: Logger,
  ) {}

  /** The tools this seat's agent may call now: its role's, from subsystems switched on. */
  current(): ToolEntry[] {
    const role = roleOf(this.seat.slot.label);
    // As in the original, a worker's `mcp_families` withholds the selectable families it did not
    // pick; every other family (agents, browser, forge's own) stays on.
    const picked = this.seat.toolFamilies?.() ?? null;
    return this.tools().filter((t) =>
      t.spec.roles.includes(role) &&
      (picked === null || !SELECTABLE_FAMILIES.has(t.spec.family) || picked.includes(t.spec.family))
    );
  }

  /**
   * Answers one `mcp_message` control request with its `{mcp_response}` payload. Requests are
   * read with the MCP SDK's own schemas; one whose params are off them is answered with the
   * spec's InvalidParams error in forge's words, an unknown method with MethodNotFound.
   */
  async handle(request: JsonObject): Promise<JsonObject> {
    const serverName = request.server_name;
    if (serverName !== SERVER_NAME) throw new Error(`unknown MCP server: ${String(serverName)}`);
    const msg = isJsonObject(request.message) ? request.message : {};
    const method = typeof msg.method === "string" ? msg.method : "";
    if (!("id" in msg) || msg.id === null) {
      const cancel = CancelledNotificationSchema.safeParse(msg);
      if (cancel.success) this.#cancel(cancel.data.params);
      // A notification is acked as the Agent SDK acks it (measured against the CLI).
      return payload({ jsonrpc: "2.0", result: {}, id: 0 });
    }
    const id = typeof msg.id === "string" || typeof msg.id === "number" ? msg.id : String(msg.id);
    const ok = (result: InitializeResult | ListToolsResult | CallToolResult | object) =>
      payload({ jsonrpc: "2.0", id, result });
    const error = (code: ErrorCode, message: string) =>
      payload({ jsonrpc: "2.0", id, error: { code, message } });
    switch (method) {
      case "initialize": {
        const init = InitializeRequestSchema.safeParse(msg);
        if (!init.success) {
          return error(
            ErrorCode.InvalidParams,
            "initialize needs params.protocolVersion, a string",
          );
        }
        const answer: InitializeResult = {
          protocolVersion: negotiateVersion(init.data.params.protocolVersion),
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
        };
        return ok(answer);
      }
      case "tools/list": {
        const tools = this.current();
        this.listed = tools.map((t) => t.spec.name).sort();
        const answer: ListToolsResult = { tools: tools.map((t) => listEntry(t.spec)) };
        return ok(answer);
      }
      case "tools/call": {
        const call = CallToolRequestSchema.safeParse(msg);
        if (!call.success) return error(ErrorCode.InvalidParams, "tools/call needs params.name");
        return ok(await this.#call(String(id), call.data.params));
      }
      case "ping":
        return ok({});
      default:
        return error(ErrorCode.MethodNotFound, `forge's MCP server has no method ${method}`);
    }
  }

  /** Ends every call still running (the process ended): their asks end `session_ended`. */
  endAll(why: string): void {
    this.#ended ??= new CallEnded("session_ended", why);
    for (const abort of this.#calls.values()) abort.abort(this.#ended);
    this.#calls.clear();
  }

  async #call(
    rpcId: string,
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
  ): Promise<CallToolResult> {
    const name = params.name;
    const entry = this.current().find((t) => t.spec.name === name);
    if (!entry) return failed(`forge offers no tool \`${name}\` to this seat now`);
    const parsed = parseInput(entry.spec, params.arguments);
    if (!parsed.ok) return failed(parsed.why);
    // MCP: a request id is never reused within a session. A second call under the id of one still
    // running would take its place in #calls, and a cancel of that id would end the wrong call.
    if (this.#calls.has(rpcId)) {
      return failed(`${name} was called under request id ${rpcId}, which a running call holds`);
    }
    const meta = params._meta ?? {};
    const abort = new AbortController();
    if (this.#ended) abort.abort(this.#ended);
    else this.#calls.set(rpcId, abort);
    const call: ToolCall = {
      seat: this.seat,
      role: roleOf(this.seat.slot.label),
      toolUseId: typeof meta["claudecode/toolUseId"] === "string"
        ? meta["claudecode/toolUseId"]
        : null,
      signal: abort.signal,
    };
    const started = performance.now();
    try {
      return answer(await entry.handler(parsed.input, call));
    } catch (err) {
      if (err instanceof Refusal) return failed(err.message);
      this.log.warn("tool_call_failed", { tool: name, subsystem: entry.subsystem, error: err });
      // An engine's or a library's message stays in the log; forge's own sentence goes back.
      return failed(
        isEngineError(err)
          ? `${name} failed inside forge; the log has the cause`
          : `${name} failed: ${(err as Error).message}`,
      );
    } finally {
      if (this.#calls.get(rpcId) === abort) this.#calls.delete(rpcId);
      this.log.debug("tool_call", { tool: name, ms: Math.round(performance.now() - started) });
    }
  }

  #cancel(params: { requestId?: string | number; reason?: string }): void {
    const rpcId = String(params.requestId);
    const abort = this.#calls.get(rpcId);
    if (!abort) return;
    this.#calls.delete(rpcId);
    const reason = typeof params.reason === "string" ? params.reason : "the CLI cancelled the call";
    abort.abort(new CallEnded("cancelled", reason));
  }
}

function answer(result: ToolResult): CallToolResult {
  const texts = [result.text, ...(result.more ?? [])].map((text) => ({
    type: "text" as const,
    text,
  }));
  const images = (result.images ?? []).map((i) => ({
    type: "image" as const,
    data: i.data,
    mimeType: i.mimeType,
  }));
  const out: CallToolResult = { content: [...texts, ...images] };
  if (result.isError) out.isError = true;
  return out;
}

function failed(text: string): CallToolResult {
  return answer({ text, isError: true });
}

/** The control response's payload: the JSON-RPC reply under `mcp_response`, as measured. */
function payload(reply: object): JsonObject {
  const out: unknown = { mcp_response: reply };
  // Always an object; the guard types it as the JSON it is (the SDK's results are JSON).
  return isJsonObject(out) ? out : {};
}
