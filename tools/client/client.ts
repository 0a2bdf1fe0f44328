import {
  type ClientKind,
  type ClientMessage,
  type CommandName,
  describeIssues,
  parseIgnoringUnknownFields,
  type ServerKind,
  ServerMessage,
  type ServerMessage as ServerMessageType,
  type Subject,
  type Wire,
  WireChecker,
} from "../../protocol/mod.ts";
import { type CommandBody, commandNameOf, commandWire, type ReplyOf } from "./commands.ts";
import { CommandDesk } from "./desk.ts";
import { opened, socketTo } from "./dial.ts";
import { ConnectionClosed, OffSchema } from "./errors.ts";
import { Following, type Listener } from "./follow.ts";
import { decodeFrame, type Frame, FrameLog } from "./frames.ts";

/** One server message of a given kind, as protocol/ types it. */
export type ServerMessageOf<K extends ServerKind> = Extract<ServerMessageType, { kind: K }>;

export interface ConnectOptions {
  /** The Origin header a browser would send (forge checks it before the upgrade). */
  origin?: string;
  /** Ask for kind-3 (gzip JSON) frames; they are inflated in order in the read path. */
  deflate?: boolean;
  /** Check every frame against protocol/'s schemas into `schemaErrors`. */
  validate?: boolean;
  /** Hold at most this many frames in `frames` (a long-running watcher); unbounded otherwise. */
  keep?: number;
}

/**
 * forge's protocol client as an SDK: dials `/socket`, sends messages typed by protocol/, runs
 * commands to their answer (`command`), follows a subject with its seat stream repaired
 * (`follow`), and waits for frames by kind (`nextKind`) or predicate (`next`). Every frame is kept
 * in arrival order in `frames` (bounded by `keep`), kind-3 frames inflated in the read path so
 * order is the socket's. When the connection ends, by `close()` or by forge, every wait still out
 * fails at once with a ConnectionClosed, and a later send throws one.
 */
export class ForgeClient {
  /** With `validate`, what every JSON frame that is off protocol/'s schemas got wrong: the
   * envelope, a snapshot's data, an update's fields, a repaired frame, a reply's body. */
  readonly schemaErrors: string[] = [];
  #log: FrameLog;
  #checker: WireChecker | null;
  #desk = new CommandDesk((m) => this.send(m));
  #listeners = new Set<Listener>();
  #closed = Promise.withResolvers<CloseEvent>();
  #ending: ConnectionClosed | null = null;

  private constructor(readonly socket: WebSocket, readonly url: string, opts: ConnectOptions) {
    this.#log = new FrameLog(opts.keep);
    this.#checker = opts.validate ? new WireChecker() : null;
    socket.onmessage = (e) => this.#arrived(decodeFrame(e.data));
    socket.onclose = (e) => {
      this.#end(e.code, e.reason);
      this.#closed.resolve(e);
    };
  }

  /**
   * Opens a connection. A socket forge refuses rejects with a ConnectFailed saying why (a refused
   * origin names `[server] allowed_origins`); nothing listening says so too.
   */
  static async connect(url: string, opts: ConnectOptions = {}): Promise<ForgeClient> {
    const target = opts.deflate ? `${url}${url.includes("?") ? "&" : "?"}deflate=1` : url;
    // Listening from the first moment: the greeting can land with the open itself.
    const client = new ForgeClient(socketTo(target, opts.origin), url, opts);
    await opened(client.socket, target, opts.origin);
    return client;
  }

  /** Every frame received, oldest first (the newest `keep` of them when bounded). */
  get frames(): Frame[] {
    return this.#log.frames;
  }

  /** Whether the connection is over (closed by either side). */
  get isClosed(): boolean {
    return this.#ending !== null;
  }

  /** Sends one client message, typed by its `kind`. Throws a ConnectionClosed once closed. */
  send<K extends ClientKind>(message: Extract<ClientMessage, { kind: K }>): void {
    this.#out(message, (message as ClientMessage).kind, JSON.stringify(message));
  }

  /** Sends a value off protocol/'s types on purpose (a test of forge's refusals), JSON-encoded. */
  sendUntyped(message: unknown): void {
    const kind = (message as { kind?: unknown } | null)?.kind;
    this.#out(message, String(kind ?? "a message"), JSON.stringify(message));
  }

  /** Sends text exactly as given (malformed input can be tried). */
  sendText(text: string): void {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: forge refuses it, and nothing about it needs counting here.
    }
    this.#out(parsed, "text", text);
  }

  sendBinary(bytes: Uint8Array): void {
    this.#refuseIfClosed("a binary frame");
    this.socket.send(bytes as Uint8Array<ArrayBuffer>);
  }

  /**
   * Runs one command to its answer: its reply's body typed by protocol/'s reply schema for a
   * command that answers by reply (its `reply_to` is allocated here), null for any other once
   * forge has taken it. A refusal rejects with a ForgeRefusal in forge's words, the connection
   * ending with a ConnectionClosed. spec: What a client sends > command.
   */
  command<N extends CommandName>(name: N, body: CommandBody<N>, ms?: number): Promise<ReplyOf<N>> {
    return this.commandWire(commandWire(name, body), ms) as Promise<ReplyOf<N>>;
  }

  /** `command` for a command already in its wire form (`"name"` or `{name: fields}`), untyped. */
  commandWire(wire: Wire, ms?: number): Promise<Wire> {
    try {
      this.#refuseIfClosed(`\`${commandNameOf(wire) ?? "command"}\``);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#desk.ask(wire, ms);
  }

  /** Follows a subject: its snapshot, then its updates, a seat's gaps repaired (follow.ts). */
  follow<S extends Subject>(subject: S, opts: { answering?: boolean } = {}): Following<S> {
    return new Following(this, subject, opts.answering ?? false);
  }

  /**
   * The oldest frame of this `kind` not yet taken (and matching `where`), read against protocol/'s
   * schema for it, waiting up to `ms`. A frame off the schema rejects with an OffSchema.
   */
  async nextKind<K extends ServerKind>(
    kind: K,
    where: (m: ServerMessageOf<K>) => boolean = () => true,
    ms = 10_000,
  ): Promise<ServerMessageOf<K>> {
    const read = (data: unknown) => parseIgnoringUnknownFields(ServerMessage, data);
    const f = await this.nextFrame((f) => {
      if (f.type !== "json" || f.data.kind !== kind) return false;
      const r = read(f.data);
      return !r.success || where(r.data as ServerMessageOf<K>);
    }, ms);
    const r = read((f as { data: unknown }).data);
    if (r.success) return r.data as ServerMessageOf<K>;
    throw new OffSchema(`a ${kind} frame off protocol/'s schema: ${describeIssues(r.error)}`);
  }

  /**
   * The oldest JSON frame not yet taken that matches `pred`, waiting up to `ms` for one to arrive.
   * Taking a frame leaves the frames before it available: a test can wait for a reply and still
   * read the update that arrived ahead of it.
   */
  next(
    pred: (m: Record<string, unknown>) => boolean = () => true,
    ms = 10_000,
  ): Promise<Record<string, unknown>> {
    return this.nextFrame((f) => f.type === "json" && pred(f.data), ms).then((f) =>
      (f as { data: Record<string, unknown> }).data
    );
  }

  nextFrame(pred: (f: Frame) => boolean, ms = 10_000): Promise<Frame> {
    return this.#log.wait(pred, ms, () => this.describeTail());
  }

  /** Calls `fn` with every frame from now on (not the client's own pongs); returns the undo. */
  onFrame(fn: (f: Frame) => void): () => void {
    return this.listen({ frame: (f, internal) => internal || fn(f), ended: () => {} });
  }

  /** Adds a listener that hears every frame and the connection's end; returns the undo. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  closed(): Promise<CloseEvent> {
    return this.#closed.promise;
  }

  /** Closes the connection: every wait still out fails now with a ConnectionClosed. */
  async close(): Promise<void> {
    if (this.socket.readyState !== WebSocket.CLOSED) {
      this.#end(1000, "closed by this client");
      this.socket.close();
    }
    await this.#closed.promise;
  }

  describeTail(n = 5): string {
    return this.frames.slice(-n).map((f) =>
      f.type === "json" ? JSON.stringify(f.data).slice(0, 160) : `<binary kind ${f.kind}>`
    ).join(" | ");
  }

  #out(message: unknown, what: string, text: string): void {
    this.#refuseIfClosed(`\`${what}\``);
    this.#checker?.sent(message);
    this.#desk.sent(message);
    this.socket.send(text);
  }

  #refuseIfClosed(what: string): void {
    const e = this.#ending;
    if (e) throw new ConnectionClosed(e.code, e.reason, `${what} was not sent`);
  }

  #arrived(frame: Frame): void {
    let claim = null;
    if (frame.type === "json") {
      if (this.#checker) this.schemaErrors.push(...this.#checker.check(frame.data));
      claim = this.#desk.heard(frame.data);
    }
    this.#log.push(frame, claim !== null);
    for (const l of [...this.#listeners]) l.frame(frame, claim === "internal");
  }

  #end(code: number, reason: string): void {
    if (this.#ending) return;
    this.#ending = new ConnectionClosed(code, reason, "closing");
    const ended = (doing: string) => () => new ConnectionClosed(code, reason, doing);
    this.#log.end(ended("the wait for a frame ended"));
    this.#desk.end(ended("the command got no answer"));
    for (const l of [...this.#listeners]) l.ended(ended("the follow ended")());
    this.#listeners.clear();
  }
}
