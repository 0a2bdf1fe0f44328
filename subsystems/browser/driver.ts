/**
 * The page driver: Playwright (playwright-core), attached over CDP to a host's Chromium beside
 * forge's own DevTools connection (one Chromium, two CDP clients), run in a Worker of its own.
 * The worker owns the Playwright connection and every Playwright object; this side sends it one
 * ask per page operation and gets back a value or a sentence. Anything that goes wrong in there -
 * a Playwright throw, a lost connection, an agent's `browser_run_code_unsafe` snippet throwing
 * out of a timer - ends that worker, never the host's frames or the server: the asks in flight
 * are answered in words and the next ask starts a fresh worker.
 */
import type { FillField } from "./driver_ops.ts";

/** Every operation the worker performs, by name: its arguments and what it answers. */
export interface DriverOps {
  /** The aria snapshot with refs (`mode: "ai"`) of the page or of one element. */
  snapshot: {
    args: { target?: string; depth?: number; boxes?: boolean };
    result: { url: string; title: string; yaml: string };
  };
  click: {
    args: {
      target: string;
      doubleClick?: boolean;
      button?: "left" | "right" | "middle";
      modifiers?: string[];
      force?: boolean;
    };
    result: null;
  };
  hover: { args: { target: string }; result: null };
  type: {
    args: { target: string; text: string; slowly?: boolean; submit?: boolean };
    result: null;
  };
  fillForm: { args: { fields: FillField[] }; result: null };
  select: { args: { target: string; values: string[] }; result: string[] };
  drag: { args: { startTarget: string; endTarget: string }; result: null };
  drop: {
    args: { target: string; paths?: string[]; data?: Record<string, string> };
    result: null;
  };
  press: { args: { key: string }; result: null };
  /** `fn` is `() => ...` (the page) or `(element) => ...` (the target). */
  evaluate: { args: { fn: string; target?: string }; result: { json: string } };
  waitFor: {
    args: { text?: string; textGone?: string; expression?: string; timeoutMs: number };
    result: null;
  };
  formState: { args: { target?: string }; result: string };
  /** A picture of the viewport, the whole page, or one element. */
  shot: {
    args: {
      target?: string;
      type: "png" | "jpeg" | "webp";
      scale: "css" | "device";
      fullPage?: boolean;
    };
    result: Uint8Array;
  };
  /** An agent's Playwright snippet `async (page) => ...` (browser_run_code_unsafe). */
  runCode: { args: { code: string }; result: { json: string } };
}
export type DriverOp = keyof DriverOps;

/** What goes to the worker. `page` is the tab's CDP target id. */
export type DriverAsk =
  | { kind: "init"; wsUrl: string; artifactsDir: string }
  | { kind: "ask"; id: number; op: DriverOp; page: string; args: unknown };

/** What comes back: an answer, a refusal in forge's words, or the connection's end. */
export type DriverReply =
  | { kind: "answer"; id: number; ok: true; value: unknown }
  | { kind: "answer"; id: number; ok: false; why: string }
  | { kind: "gone"; why: string };

/** A page operation the driver refused or could not do, in words the agent reads. */
export class DriverError extends Error {}

/** How long one ask may take before the worker is judged stuck and replaced. */
export const ASK_BOUND_MS = 60_000;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * One host's Playwright worker, started on the first ask and replaced after it stops. `wsUrl`
 * is read at each start: the host's DevTools URL changes when Chromium restarts.
 */
export class PageDriver {
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  /** How many workers this driver has started: a test reads a replacement off it. */
  starts = 0;

  constructor(
    private readonly wsUrl: () => string | null,
    /** Playwright's own files (it keeps none for forge, but wants a place): one per host. */
    private readonly artifactsDir: string,
    private readonly log: (event: string, fields: Record<string, unknown>) => void,
  ) {}

  /** Runs one operation on the page whose target id is `page`. Rejects with a DriverError. */
  ask<K extends DriverOp>(
    op: K,
    page: string,
    args: DriverOps[K]["args"],
    boundMs = ASK_BOUND_MS,
  ): Promise<DriverOps[K]["result"]> {
    let worker: Worker;
    try {
      worker = this.#ensure();
    } catch (err) {
      return Promise.reject(err);
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#stop(`Playwright did not answer ${op} within ${Math.round(boundMs / 1000)} s`);
      }, boundMs);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      worker.postMessage({ kind: "ask", id, op, page, args } satisfies DriverAsk);
    });
  }

  /** Ends the worker (the host closed or died); asks in flight are answered with `why`. */
  close(why = "the browser closed"): void {
    this.#stop(why, false);
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.#worker !== null;
  }

  #ensure(): Worker {
    if (this.#worker) return this.#worker;
    const wsUrl = this.wsUrl();
    if (!wsUrl) throw new DriverError("the browser is not running");
    const worker = new Worker(new URL("./driver_worker.ts", import.meta.url), { type: "module" });
    this.#worker = worker;
    this.starts++;
    this.log("browser_driver_started", { start: this.starts });
    worker.onmessage = (e: MessageEvent<DriverReply>) => this.#reply(worker, e.data);
    worker.onerror = (e: ErrorEvent) => {
      // An uncaught throw or rejection in the worker ends the worker, not the server.
      e.preventDefault();
      if (this.#worker === worker) this.#stop(`Playwright's worker failed: ${e.message}`);
    };
    worker.postMessage(
      { kind: "init", wsUrl, artifactsDir: this.artifactsDir } satisfies DriverAsk,
    );
    return worker;
  }

  #reply(worker: Worker, r: DriverReply): void {
    if (worker !== this.#worker) return;
    if (r.kind === "gone") return this.#stop(r.why);
    const p = this.#pending.get(r.id);
    if (!p) return;
    this.#pending.delete(r.id);
    clearTimeout(p.timer);
    if (r.ok) p.resolve(r.value);
    else p.reject(new DriverError(r.why));
  }

  #stop(why: string, failed = true): void {
    const worker = this.#worker;
    this.#worker = null;
    worker?.terminate();
    if (failed && worker) this.log("browser_driver_stopped", { why });
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(
        new DriverError(
          failed ? `${why}; the page driver restarts on the next call` : why,
        ),
      );
    }
    this.#pending.clear();
  }
}
