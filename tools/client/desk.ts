import type { ClientMessage, ErrorFrame, Wire, WireCommand } from "../../protocol/mod.ts";
import { answersByReply, commandNameOf, readReply } from "./commands.ts";
import { ForgeRefusal } from "./errors.ts";

/** How long a command waits for forge's answer: above the slowest (a worker's spawn). */
export const COMMAND_BOUND_MS = 120_000;

interface Pending {
  name: string;
  /** The leading ping's number: an `error` after its pong and before `closes`' is this command's. */
  opens: number;
  closes: number;
  replyTo: number | null;
  /** Reads the reply's body into the answer (throws a refusal or an off-schema error). */
  read: (body: Wire) => Wire;
  resolve: (answer: Wire) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** What the desk made of an arriving frame. */
export type Claim = "internal" | "answer" | null;

/**
 * The commands out on one connection and how each is answered. forge handles a connection's
 * messages one at a time, in order, so a command sent between two pings is answered between
 * their two pongs: an `error` frame there is its refusal (error frames name no reply_to), its
 * `reply` is matched by `reply_to`, and the second pong with neither means forge took it. A
 * reply command gets a fresh `reply_to` (spec: command > reply_to: required on exactly those).
 */
export class CommandDesk {
  #pingsSent = 0;
  #pongs = 0;
  /** Whether anything went out since the last ping, so a new command needs its own first ping. */
  #sentSinceLastPing = true;
  /** The pings the desk sent itself: their pongs are no one else's to read. */
  #ownPings = new Set<number>();
  #pending = new Set<Pending>();
  #nextReplyTo = 1;

  constructor(private readonly transmit: (m: ClientMessage) => void) {}

  /** Notes a message going out by any path: a ping is counted, since its pong will be. */
  sent(message: unknown): void {
    const kind = (message as { kind?: unknown } | null)?.kind;
    if (kind === "ping") {
      this.#pingsSent++;
      this.#sentSinceLastPing = false;
    } else this.#sentSinceLastPing = true;
  }

  /** A reply_to no command on this desk uses (the protocol client's own numbering). */
  allocateReplyTo(): number {
    return this.#nextReplyTo++;
  }

  /**
   * Sends `wire` as a command and answers what forge made of it: the reply's body read against
   * protocol/'s reply schema, null for a command with no reply once forge has taken it, or a
   * ForgeRefusal in forge's words.
   */
  ask(wire: Wire, ms = COMMAND_BOUND_MS): Promise<Wire> {
    const name = commandNameOf(wire) ?? "command";
    const replyTo = answersByReply(name) ? this.allocateReplyTo() : null;
    // `wire` is a command built against COMMANDS (command()) or a person's own JSON (the
    // client tool): either way forge reads it, and refuses it in words when it is not one.
    const command = wire as WireCommand;
    const message: ClientMessage = replyTo === null
      ? { kind: "command", command }
      : { kind: "command", command, reply_to: replyTo };
    return this.#bracket(name, message, replyTo, ms, (body) => readReply(name, body));
  }

  /**
   * Sends a client verb that answers through a reply (protocol/'s VERB_REPLIES), written by
   * `withReplyTo` around a fresh `reply_to`, and answers its body as `read` makes it; an `error`
   * frame refuses it as a command's does.
   */
  verb(
    withReplyTo: (replyTo: number) => ClientMessage,
    read: (body: Wire) => Wire,
    ms = COMMAND_BOUND_MS,
  ): Promise<Wire> {
    const replyTo = this.allocateReplyTo();
    const message = withReplyTo(replyTo);
    return this.#bracket(message.kind, message, replyTo, ms, read);
  }

  /**
   * Sends any message between two pings and answers once forge has taken it (null), or rejects
   * with the ForgeRefusal forge answered it with: the refusal of a message with no reply of its
   * own (spec: ping; forge reads one connection's messages in order). A reply it has is left to
   * whoever waits for it.
   */
  check(message: ClientMessage, ms = COMMAND_BOUND_MS): Promise<null> {
    const name = message.kind === "command"
      ? commandNameOf(message.command) ?? "command"
      : message.kind;
    return this.#bracket(name, message, null, ms, () => null) as Promise<null>;
  }

  #bracket(
    name: string,
    message: ClientMessage,
    replyTo: number | null,
    ms: number,
    read: (body: Wire) => Wire,
  ) {
    if (this.#sentSinceLastPing) this.#ping();
    const opens = this.#pingsSent;
    this.transmit(message);
    this.#ping();
    const { promise, resolve, reject } = Promise.withResolvers<Wire>();
    const p: Pending = {
      name,
      opens,
      closes: this.#pingsSent,
      replyTo,
      read,
      resolve,
      reject,
      timer: undefined,
    };
    p.timer = setTimeout(() => {
      this.#settle(p);
      reject(new Error(`forge did not answer ${name} within ${Math.round(ms / 1000)} s`));
    }, ms);
    this.#pending.add(p);
    return promise;
  }

  /** Sends a ping of the desk's own (the quiet probe): its pong is no one else's to read. */
  probe(): void {
    this.#ping();
  }

  /** Reads one arriving JSON frame: whether it answered a command here, or was the desk's own. */
  heard(m: Record<string, unknown>): Claim {
    if (m.kind === "pong") {
      const n = ++this.#pongs;
      const own = this.#ownPings.delete(n);
      const done = this.#find((p) => p.closes === n);
      if (done) {
        this.#settle(done);
        if (done.replyTo === null) done.resolve(null);
        else done.reject(new Error(`forge took ${done.name} and sent no reply to it`));
      }
      return own ? "internal" : null;
    }
    if (m.kind === "reply") {
      const p = this.#find((p) => p.replyTo === m.reply_to);
      if (!p) return null;
      this.#settle(p);
      try {
        p.resolve(p.read(m.body as Wire));
      } catch (err) {
        p.reject(err as Error);
      }
      return "answer";
    }
    if (m.kind === "error") {
      const p = this.#find((p) => p.opens === this.#pongs);
      if (!p) return null;
      this.#settle(p);
      const e = m as unknown as ErrorFrame;
      p.reject(new ForgeRefusal(e.what, e.why, e.seat));
      return "answer";
    }
    return null;
  }

  /** The connection is over: every command out fails now with `error()`. */
  end(error: () => Error): void {
    for (const p of [...this.#pending]) {
      this.#settle(p);
      p.reject(error());
    }
  }

  #ping(): void {
    this.transmit({ kind: "ping" });
    this.#ownPings.add(this.#pingsSent);
  }

  #find(pred: (p: Pending) => boolean): Pending | undefined {
    for (const p of this.#pending) if (pred(p)) return p;
    return undefined;
  }

  #settle(p: Pending): void {
    clearTimeout(p.timer);
    this.#pending.delete(p);
  }
}
