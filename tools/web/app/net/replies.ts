import type { ClientMessage, Wire } from "../../../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../../../server/clock.ts";

/**
 * How long the page waits for a reply before it says none came. Above the slowest answer a
 * person waits on (a worker's spawn starts a CLI and makes a worktree).
 */
export const REPLY_BOUND_MS = 120_000;

/** A reply that will not come: its message says what was asked and why, in words. */
export class ReplyLost extends Error {
  override name = "ReplyLost";
}

/** What a message asks, as a person reads it: the command's name, or the message's kind. */
export function askedWhat(m: ClientMessage): string {
  if (m.kind !== "command") return m.kind;
  const c = m.command;
  return typeof c === "string" ? c : Object.keys(c)[0] ?? "command";
}

interface Pending {
  what: string;
  resolve(body: Wire): void;
  reject(err: ReplyLost): void;
  timer: unknown;
}

/**
 * The replies a page waits on, by `reply_to`. Each ends in its body, or in words: not sent
 * (no socket), the connection dropped before it came (the server's reply died with the old
 * connection, spec: command > reply_to), or none came within the bound. None waits for ever.
 */
export class Replies {
  #pending = new Map<number, Pending>();
  #next = 100;

  constructor(private readonly clock: Clock = MONOTONIC) {}

  /** Sends the built message with a fresh id (through `send`) and answers its reply's body. */
  ask(build: (replyTo: number) => ClientMessage, send: (m: ClientMessage) => boolean) {
    const id = ++this.#next;
    const message = build(id);
    const what = askedWhat(message);
    const { promise, resolve, reject } = Promise.withResolvers<Wire>();
    if (!send(message)) {
      reject(new ReplyLost(`${what} was not sent: the connection to forge is down.`));
      return promise;
    }
    const timer = this.clock.set(() => {
      this.#end(id, `forge did not answer ${what} within ${REPLY_BOUND_MS / 1000} s.`);
    }, REPLY_BOUND_MS);
    this.#pending.set(id, { what, resolve, reject, timer });
    return promise;
  }

  /** A reply arrived: true when this page was waiting on it. */
  answer(replyTo: number, body: Wire): boolean {
    const p = this.#pending.get(replyTo);
    if (!p) return false;
    this.#pending.delete(replyTo);
    this.clock.clear(p.timer);
    p.resolve(body);
    return true;
  }

  /** The connection went: every reply still out fails, saying it may or may not have happened. */
  dropped(): void {
    for (const [id, p] of [...this.#pending]) {
      this.#end(
        id,
        `the connection to forge dropped before it answered ${p.what}; ` +
          "it may or may not have been done.",
      );
    }
  }

  #end(id: number, why: string): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#pending.delete(id);
    this.clock.clear(p.timer);
    p.reject(new ReplyLost(why));
  }
}

/** A failure's words, for a view that shows them. */
export function lostWords(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
