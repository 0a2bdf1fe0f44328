/**
 * Stat stamps read off the JS thread, a batch at a time. A home read of hundreds of projects
 * stats every tree and every transcript folder; each `Deno.stat` is an async op that hops to the
 * blocking pool and back, and the hops cost several times the syscall (tools/bench/home.ts). The
 * paths asked for within one turn of the event loop go to one thread in one message, which stats
 * them back to back. A path on a mount that hangs holds up the stamps behind it, never the JS
 * thread.
 */

/** What the work glance and the catalog read of a path: its mtime (ms) and size, and its kind. */
export interface Stamp {
  mtime: number;
  size: number;
  isDirectory: boolean;
}

/** One batch to the stat thread. */
export interface StampBatch {
  id: number;
  paths: string[];
}

/** The stat thread's answer: a stamp per path, in order, null for one that would not stat. */
export interface StampReply {
  id: number;
  stamps: (Stamp | null)[];
}

/** The smallest batch that starts the stat thread: a home of 16 projects asks 32 stamps. */
export const STAMP_THREAD_BATCH = 32;

interface Waiter {
  path: string;
  resolve: (stamp: Stamp | null) => void;
}

/**
 * Stamps paths on one stat thread, started by the first batch of at least `minBatch` paths and
 * kept: starting one costs tens of ms of CPU and holds about 13 MiB, so a few projects' batches,
 * for which the async ops cost well under a millisecond, never start it, and once started it
 * stays rather than paying the start again. A thread that fails (it would not load, or died) is
 * not started again, and every stamp asked of it, and after it, is read with `Deno.stat`.
 */
export class Stamper {
  #worker: Worker | null = null;
  #broken = false;
  #queued: Waiter[] = [];
  readonly #sent = new Map<number, Waiter[]>();
  #seq = 0;
  readonly #module: URL;
  readonly #minBatch: number;
  /** Batches sent to the stat thread. */
  batches = 0;

  /** `module`: the stat thread's (a test names one that will not load); `minBatch` as above. */
  constructor(opts: { module?: URL; minBatch?: number } = {}) {
    this.#module = opts.module ?? new URL("./stamps_worker.ts", import.meta.url);
    this.#minBatch = opts.minBatch ?? STAMP_THREAD_BATCH;
  }

  /** `path`'s stamp, or null when it will not stat. Never rejects. */
  stamp(path: string): Promise<Stamp | null> {
    return new Promise((resolve) => {
      // The first ask of a turn schedules the batch; the rest of the turn's asks join it.
      if (this.#queued.push({ path, resolve }) === 1) setTimeout(() => this.#flush(), 0);
    });
  }

  /** Ends the stat thread (a test's clean-up); a later ask starts another. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#fallBack();
  }

  #flush(): void {
    const batch = this.#queued;
    this.#queued = [];
    const worker = this.#worker ?? (batch.length >= this.#minBatch ? this.#thread() : null);
    if (worker === null) {
      for (const w of batch) statStamp(w.path).then(w.resolve);
      return;
    }
    const id = ++this.#seq;
    this.#sent.set(id, batch);
    this.batches++;
    const message: StampBatch = { id, paths: batch.map((w) => w.path) };
    worker.postMessage(message);
  }

  #thread(): Worker | null {
    if (this.#worker !== null || this.#broken) return this.#worker;
    let worker: Worker;
    try {
      worker = new Worker(this.#module, { type: "module" });
    } catch {
      // No thread to be had (a runtime that refuses workers): every stamp is stat'ed here.
      this.#broken = true;
      return null;
    }
    worker.onmessage = (e: MessageEvent<StampReply>) => {
      const batch = this.#sent.get(e.data.id);
      this.#sent.delete(e.data.id);
      batch?.forEach((w, i) => w.resolve(e.data.stamps[i]));
    };
    worker.onerror = (e) => {
      // A stat thread that fails is a slower path, not a wrong answer: what it held is stat'ed
      // here, and so is everything after.
      e.preventDefault();
      worker.terminate();
      this.#broken = true;
      this.#worker = null;
      this.#fallBack();
    };
    this.#worker = worker;
    return worker;
  }

  /** Stamps whatever the thread held with `Deno.stat`. */
  #fallBack(): void {
    for (const batch of this.#sent.values()) {
      for (const w of batch) statStamp(w.path).then(w.resolve);
    }
    this.#sent.clear();
  }
}

/** `path`'s stamp read with `Deno.stat` on this thread's async op. */
export async function statStamp(path: string): Promise<Stamp | null> {
  try {
    const info = await Deno.stat(path);
    return { mtime: info.mtime?.getTime() ?? 0, size: info.size, isDirectory: info.isDirectory };
  } catch {
    // A probe: a path that will not stat has no stamp, which is the answer.
    return null;
  }
}

const stamper = new Stamper();

/** `path`'s stamp through the server's one stat thread. */
export function stamp(path: string): Promise<Stamp | null> {
  return stamper.stamp(path);
}
