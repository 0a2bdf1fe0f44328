/**
 * The page driver: Playwright (playwright-core), attached over CDP to a host's Chromium beside
 * forge's own DevTools connection (one Chromium, two CDP clients), run in a Worker of its own.
 * The worker owns the Playwright connection and every Playwright object; this side sends it one
 * ask per page operation and gets back a value or a sentence. Anything that goes wrong in there -
 * a Playwright throw, a lost connection, an agent's `browser_run_code_unsafe` snippet throwing
 * out of a timer - ends that worker, never the host's frames or the server: the asks in flight
 * are answered in words and the next ask starts a fresh worker.
 *
 * A slow ask fails alone. Each carries its bound and the worker answers it in words when the
 * bound runs out (a page running a script without end, or holding a dialog, answers nothing);
 * the worker is ended only when it stops answering a ping of its own - its thread is stuck, not
 * one page.
 */
import type { DriverAsk, DriverOp, DriverOps, DriverReply } from "./driver_messages.ts";

/** A page operation the driver refused or could not do, in words the agent reads. */
export class DriverError extends Error {}

/** How long one ask may take unless it says otherwise (wait_for says its own). */
export const ASK_BOUND_MS = 30_000;
/** How much past its bound an unanswered ask is given up here (the worker should have said). */
const LATE_MS = 3_000;
/** How long the worker has to answer a ping before it is judged stuck and replaced. */
const PING_MS = 5_000;
/** How long a fresh worker may take to load Playwright and attach. */
const START_MS = 60_000;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** What a driver needs of its host. */
export interface DriverHost {
  /** The host's DevTools URL, read at each start (it changes when Chromium restarts). */
  wsUrl(): string | null;
  /**
   * Readies the host's pages for Playwright, which waits on every page as it attaches: the
   * sentence saying which page keeps it from attaching, or null. Asked before each attach and
   * again after one fails.
   */
  readyForAttach(): Promise<string | null>;
  log(event: string, fields: Record<string, unknown>): void;
}

/** One host's Playwright worker, started on the first ask and replaced after it stops. */
export class PageDriver {
  #worker: Worker | null = null;
  #starting: Promise<Worker> | null = null;
  #pending = new Map<number, Pending>();
  #ping: ReturnType<typeof setTimeout> | null = null;
  /** Counts closes: a start that a close overtook does not keep its worker. */
  #epoch = 0;
  #nextId = 1;
  /** How many workers this driver has started: a test reads a replacement off it. */
  starts = 0;
  /** The bound of an ask that names none (a test shortens it). */
  askBoundMs = ASK_BOUND_MS;

  constructor(
    private readonly host: DriverHost,
    /** Playwright's own files (it keeps none for forge, but wants a place): one per host. */
    private readonly artifactsDir: string,
  ) {}

  /** Runs one operation on the page whose target id is `page`. Rejects with a DriverError. */
  async ask<K extends DriverOp>(
    op: K,
    page: string,
    args: DriverOps[K]["args"],
    boundMs = this.askBoundMs,
  ): Promise<DriverOps[K]["result"]> {
    const worker = await this.#ensure();
    const id = this.#nextId++;
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // The worker answers a slow ask itself; silence past that is its own trouble or a
        // stuck thread: this ask fails, and a ping says which.
        this.#pending.delete(id);
        reject(new DriverError(`Playwright did not answer ${op} within ${seconds(boundMs)} s`));
        this.#checkHealth(worker);
      }, boundMs + LATE_MS);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      worker.postMessage({ kind: "ask", id, op, page, args, boundMs } satisfies DriverAsk);
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

  #ensure(): Promise<Worker> {
    if (this.#worker) return Promise.resolve(this.#worker);
    this.#starting ??= this.#start().finally(() => (this.#starting = null));
    return this.#starting;
  }

  async #start(): Promise<Worker> {
    const epoch = this.#epoch;
    const wsUrl = this.host.wsUrl();
    if (!wsUrl) throw new DriverError("the browser is not running");
    const blocked = await this.host.readyForAttach();
    if (blocked) throw new DriverError(blocked);
    const worker = new Worker(new URL("./driver_worker.ts", import.meta.url), { type: "module" });
    this.starts++;
    this.host.log("browser_driver_started", { start: this.starts });
    const attached = Promise.withResolvers<void>();
    const timer = setTimeout(
      () => attached.reject(new Error(`it did not attach within ${seconds(START_MS)} s`)),
      START_MS,
    );
    worker.onmessage = (e: MessageEvent<DriverReply>) => {
      if (e.data.kind === "attached") attached.resolve();
      else if (e.data.kind === "gone" && this.#worker !== worker) {
        attached.reject(new Error(e.data.why));
      } else this.#reply(worker, e.data);
    };
    worker.onerror = (e: ErrorEvent) => {
      // An uncaught throw or rejection in the worker ends the worker, not the server.
      e.preventDefault();
      if (this.#worker === worker) this.#stop(`Playwright's worker failed: ${e.message}`);
      else attached.reject(new Error(`Playwright's worker failed: ${e.message}`));
    };
    worker.postMessage(
      { kind: "init", wsUrl, artifactsDir: this.artifactsDir } satisfies DriverAsk,
    );
    try {
      await attached.promise;
    } catch (err) {
      worker.terminate();
      this.host.log("browser_driver_stopped", { why: (err as Error).message });
      // Playwright waits on every page as it attaches: a page that stopped answering meanwhile
      // is named rather than Playwright's timeout.
      const blocker = await this.host.readyForAttach().catch(() => null);
      throw new DriverError(blocker ?? (err as Error).message);
    } finally {
      clearTimeout(timer);
    }
    if (epoch !== this.#epoch) {
      worker.terminate();
      throw new DriverError("the browser closed while Playwright attached");
    }
    this.#worker = worker;
    return worker;
  }

  /** Pings the worker once; no pong within PING_MS ends it. */
  #checkHealth(worker: Worker): void {
    if (this.#ping || this.#worker !== worker) return;
    this.#ping = setTimeout(() => {
      this.#ping = null;
      if (this.#worker !== worker) return;
      this.#stop(
        `Playwright's worker stopped answering (no answer to a check in ${seconds(PING_MS)} s)`,
      );
    }, PING_MS);
    worker.postMessage({ kind: "ping" } satisfies DriverAsk);
  }

  #reply(worker: Worker, r: DriverReply): void {
    if (worker !== this.#worker) return;
    if (r.kind === "gone") return this.#stop(r.why);
    if (r.kind === "pong") {
      if (this.#ping) clearTimeout(this.#ping);
      this.#ping = null;
      return;
    }
    if (r.kind !== "answer") return;
    const p = this.#pending.get(r.id);
    if (!p) return;
    this.#pending.delete(r.id);
    clearTimeout(p.timer);
    if (r.ok) p.resolve(r.value);
    else p.reject(new DriverError(r.why));
  }

  #stop(why: string, failed = true): void {
    this.#epoch++;
    const worker = this.#worker;
    this.#worker = null;
    worker?.terminate();
    if (this.#ping) clearTimeout(this.#ping);
    this.#ping = null;
    if (failed && worker) this.host.log("browser_driver_stopped", { why });
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

const seconds = (ms: number) => Math.round(ms / 100) / 10;
