/**
 * One change at a time: jobs run in the order they were queued, each after the one before has
 * settled. A job that throws answers its caller and does not stop the next.
 */
export class Lock {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every job queued before it; answers what `fn` answers or throws. */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.#tail.then(fn);
    // The queue's own copy: the caller's `run` carries the failure; the queue carries on.
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Resolves once every job queued so far has settled; never rejects. */
  idle(): Promise<unknown> {
    return this.#tail;
  }
}

/** A `Lock` per key: jobs under one key run one at a time, jobs under different keys freely. */
export class KeyedLock {
  #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every job queued before it under `key`. */
  run<T>(key: string, fn: () => Promise<T> | T): Promise<T> {
    const run = (this.#tails.get(key) ?? Promise.resolve()).then(fn);
    // The queue's own copy: the caller's `run` carries the failure; the key's queue carries on.
    const tail = run.catch(() => {});
    this.#tails.set(key, tail);
    // The last job under a key takes its entry with it, so the map holds only busy keys.
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }
}
