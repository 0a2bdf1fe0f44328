/**
 * An unbounded single-consumer async queue: the producer never waits, the consumer awaits the
 * next item. Once the consumer stops iterating (break/return), later items are dropped.
 */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  #items: T[] = [];
  #waiter: ((r: IteratorResult<T, undefined>) => void) | null = null;
  #ended = false;
  #detached = false;

  /** Items buffered and not yet taken. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds an item (dropped once the consumer detached or the queue ended). */
  push(item: T): void {
    if (this.#ended || this.#detached) return;
    const w = this.#waiter;
    if (w) {
      this.#waiter = null;
      w({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /** No more items: the consumer gets what is buffered, then `done`. */
  end(): void {
    this.#ended = true;
    const w = this.#waiter;
    if (w && this.#items.length === 0) {
      this.#waiter = null;
      w({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#items.length > 0) {
      return Promise.resolve({ value: this.#items.shift()!, done: false });
    }
    if (this.#ended || this.#detached) return Promise.resolve({ value: undefined, done: true });
    if (this.#waiter) throw new Error("EventQueue: next() called while a read is pending");
    return new Promise((resolve) => this.#waiter = resolve);
  }

  return(): Promise<IteratorResult<T, undefined>> {
    this.#detached = true;
    this.#items.length = 0;
    const w = this.#waiter;
    this.#waiter = null;
    w?.({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
