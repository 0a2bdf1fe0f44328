/**
 * Outbound control requests (forge -> CLI, the subtypes the original forge sends): numbered ids,
 * the pending map resolved by the CLI's `control_response`, and a timeout per request.
 */
import { isJsonObject, type JsonObject } from "./types.ts";

/**
 * A control request the CLI refused, did not answer in time, or could not answer. `reason` is a
 * clause a person can read (`the CLI answered "Server not found: x"`, `claude exited (code 0)`);
 * the request id is the CLI's bookkeeping: it stays on the error for the log, out of the message
 * a frame may carry.
 */
export class ControlError extends Error {
  constructor(
    readonly subtype: string,
    readonly requestId: string,
    readonly reason: string,
    /** The CLI's `error_code` (e.g. `unsupported_request`), when it sent one. */
    readonly code?: string,
    options?: ErrorOptions,
  ) {
    super(`claude control request ${subtype} failed: ${reason}`, options);
    this.name = "ControlError";
  }
}

interface Pending {
  subtype: string;
  resolve: (v: JsonObject) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function hex4(): string {
  const b = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Tracks forge's own control requests. `send` writes one stdin line and may throw. */
export class ControlChannel {
  #counter = 0;
  #pending = new Map<string, Pending>();
  #closed: string | null = null;

  constructor(
    private readonly send: (line: JsonObject) => void,
    private readonly defaultTimeoutMs = 30_000,
  ) {}

  /** Requests awaiting an answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /** A fresh id in the SDK's format: `req_<counter>_<8 hex>`. */
  nextId(): string {
    return `req_${++this.#counter}_${hex4()}`;
  }

  /**
   * Sends `{type:"control_request", request_id, request:{subtype, ...body}}` and resolves with
   * the success payload (`response.response`, `{}` when absent). Rejects with ControlError on
   * an error response, on timeout, or when the channel closes first.
   */
  request(subtype: string, body: JsonObject = {}, timeoutMs?: number): Promise<JsonObject> {
    const id = this.nextId();
    if (this.#closed !== null) {
      return Promise.reject(new ControlError(subtype, id, this.#closed));
    }
    const { promise, resolve, reject } = Promise.withResolvers<JsonObject>();
    const ms = timeoutMs ?? this.defaultTimeoutMs;
    const timer = setTimeout(() => {
      this.#pending.delete(id);
      reject(new ControlError(subtype, id, `the CLI did not answer within ${ms} ms`));
    }, ms);
    this.#pending.set(id, { subtype, resolve, reject, timer });
    try {
      this.send({ type: "control_request", request_id: id, request: { ...body, subtype } });
    } catch (e) {
      clearTimeout(timer);
      this.#pending.delete(id);
      // The write's own words ride on the cause: the reason is that the CLI never heard it.
      reject(
        new ControlError(subtype, id, "it could not be written to the CLI", undefined, {
          cause: e,
        }),
      );
    }
    return promise;
  }

  /**
   * Settles the request a `control_response` frame answers. The CLI puts the id inside
   * `response`. Returns false when the frame matches no pending request.
   */
  handleResponse(frame: JsonObject): boolean {
    const response = frame.response;
    if (!isJsonObject(response) || typeof response.request_id !== "string") return false;
    const p = this.#pending.get(response.request_id);
    if (!p) return false;
    this.#pending.delete(response.request_id);
    clearTimeout(p.timer);
    if (response.subtype === "success") {
      p.resolve(isJsonObject(response.response) ? response.response : {});
    } else {
      const code = typeof response.error_code === "string" ? response.error_code : undefined;
      const reason = typeof response.error === "string"
        ? `the CLI answered "${response.error}"`
        : `the CLI refused it${code ? ` (${code})` : ""}`;
      p.reject(new ControlError(p.subtype, response.request_id, reason, code));
    }
    return true;
  }

  /** Rejects every pending request and refuses new ones, naming `reason`. Idempotent. */
  close(reason: string): void {
    this.#closed ??= reason;
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new ControlError(p.subtype, id, reason));
    }
    this.#pending.clear();
  }
}
