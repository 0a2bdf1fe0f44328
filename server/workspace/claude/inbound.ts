/**
 * Inbound control requests (CLI -> forge): `can_use_tool` goes to the permission handler, other
 * subtypes to the generic handler or an error answer, and `control_cancel_request` aborts the
 * handler still deciding.
 */
import type { CanUseToolHandler, ControlRequestHandler, JsonObject } from "./types.ts";
import { isJsonObject, type PermissionDecision } from "./types.ts";

/** Writes one stdin line; may throw when stdin is gone. */
export type SendLine = (line: JsonObject) => void;

function success(requestId: string, response: JsonObject): JsonObject {
  return {
    type: "control_response",
    response: { subtype: "success", request_id: requestId, response },
  };
}

function failure(requestId: string, error: string): JsonObject {
  return { type: "control_response", response: { subtype: "error", request_id: requestId, error } };
}

/** The wire form of a decision: `interrupt` only when true, `updatedPermissions` only when set. */
export function decisionPayload(d: PermissionDecision): JsonObject {
  if (d.behavior === "allow") {
    const out: JsonObject = { behavior: "allow", updatedInput: d.updatedInput };
    if (d.updatedPermissions) out.updatedPermissions = d.updatedPermissions;
    return out;
  }
  const out: JsonObject = { behavior: "deny", message: d.message };
  if (d.interrupt) out.interrupt = true;
  return out;
}

/** Answers the CLI's control requests; one instance per process. */
export class InboundControl {
  #inFlight = new Map<string, AbortController>();

  constructor(
    private readonly send: SendLine,
    private readonly canUseTool?: CanUseToolHandler,
    private readonly other?: ControlRequestHandler,
    private readonly onProblem: (what: string) => void = () => {},
  ) {}

  /** Handles a `control_request` frame; the answer is written when the handler settles. */
  handleRequest(frame: JsonObject): void {
    const id = frame.request_id;
    const request = frame.request;
    if (typeof id !== "string" || !isJsonObject(request) || typeof request.subtype !== "string") {
      this.onProblem(`malformed control_request: ${JSON.stringify(frame).slice(0, 200)}`);
      return;
    }
    const abort = new AbortController();
    this.#inFlight.set(id, abort);
    this.#answer(id, request.subtype, request, abort.signal)
      .then((line) => {
        // A cancelled request gets no answer: the CLI stopped waiting for it.
        if (this.#inFlight.get(id) !== abort || abort.signal.aborted) return;
        this.#inFlight.delete(id);
        this.#write(line);
      });
  }

  /** Handles `control_cancel_request {request_id}`: aborts that handler, answers nothing. */
  handleCancel(frame: JsonObject): void {
    const id = frame.request_id;
    if (typeof id !== "string") return;
    const abort = this.#inFlight.get(id);
    this.#inFlight.delete(id);
    abort?.abort(new Error(`claude cancelled control request ${id}`));
  }

  /** Aborts every handler still running (the process is gone). */
  abortAll(reason: string): void {
    for (const abort of this.#inFlight.values()) abort.abort(new Error(reason));
    this.#inFlight.clear();
  }

  async #answer(
    id: string,
    subtype: string,
    request: JsonObject,
    signal: AbortSignal,
  ): Promise<JsonObject> {
    if (subtype === "can_use_tool") {
      const input = isJsonObject(request.input) ? request.input : {};
      if (!this.canUseTool) {
        return success(
          id,
          decisionPayload({ behavior: "deny", message: "forge: no permission handler" }),
        );
      }
      try {
        const decision = await this.canUseTool({
          request_id: id,
          tool_name: String(request.tool_name ?? ""),
          tool_use_id: String(request.tool_use_id ?? ""),
          input,
          raw: request,
        }, signal);
        return success(id, decisionPayload(decision));
      } catch (e) {
        // A failing handler must not leave the CLI waiting: deny, naming the failure.
        const why = `forge: permission handler failed: ${(e as Error).message}`;
        return success(id, decisionPayload({ behavior: "deny", message: why }));
      }
    }
    if (!this.other) return failure(id, `Unsupported control request subtype: ${subtype}`);
    try {
      return success(id, await this.other(subtype, request, signal));
    } catch (e) {
      return failure(id, `forge: ${subtype} handler failed: ${(e as Error).message}`);
    }
  }

  #write(line: JsonObject): void {
    try {
      this.send(line);
    } catch (e) {
      this.onProblem(`could not answer control request: ${(e as Error).message}`);
    }
  }
}
