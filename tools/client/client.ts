import {
  type ClientKind,
  type ClientMessage,
  type ClientMessageOf,
  type CommandName,
  describeIssues,
  parseIgnoringUnknownFields,
  type ReplyVerb,
  type ServerKind,
  ServerMessage,
  type Subject,
  type Wire,
  WireChecker,
} from "../../protocol/mod.ts";
import { type CommandBody, commandNameOf, commandWire, type ReplyOf } from "./commands.ts";
import { Attachments, type Reattachment } from "./attachments.ts";
import { CommandDesk } from "./desk.ts";
import { ConnectionClosed, OffSchema } from "./errors.ts";
import { Following, type Listener } from "./follow.ts";
import { type Frame, FrameLog } from "./frames.ts";
import { ForgeLink, type LinkOwner } from "./link.ts";
import { type Regain, Roles } from "./roles.ts";
import { type LinkEvent, redialPlan } from "./redial.ts";
import type { ConnectOptions, ServerMessageOf } from "./options.ts";
import { type Restoration, Subscriptions } from "./subscriptions.ts";
import { readVerbReply, type VerbReplyOf } from "./verbs.ts";

/**
 * forge's protocol client as an SDK: dials `/socket`, sends messages typed by protocol/, runs
 * commands to their answer (`command`), follows a subject with its seat stream repaired
 * (`follow`), and waits for frames by kind (`nextKind`) or predicate (`next`). Every frame is kept
 * in arrival order in `frames` (bounded by `keep`), kind-3 frames inflated in the read path so
 * order is the socket's. When the connection ends, by `close()` or by forge, every wait still out
 * fails at once with a ConnectionClosed, and a later send throws one. With `reconnect`, a drop is
 * not the end: commands out fail, waits and follows carry on over the next socket (`onLink`).
 */
export class ForgeClient {
  /** With `validate`, what every JSON frame that is off protocol/'s schemas got wrong: the
   * envelope, a snapshot's data, an update's fields, a repaired frame, a reply's body. */
  readonly schemaErrors: string[] = [];
  #log: FrameLog;
  #checker: WireChecker | null;
  #desk = new CommandDesk((m) => this.send(m));
  #listeners = new Set<Listener>();
  /** Every subscription this connection holds, in order: what a reconnect asks for again. */
  #subs = new Subscriptions();
  /** The terminal and browser tab this connection views: attached again after a reconnect. */
  #views = new Attachments();
  /** The control it holds of them, and a terminal pause: asked for again once they are back. */
  #roles: Roles;
  #linkListeners = new Set<(e: LinkEvent) => void>();
  #link!: ForgeLink;
  /** The server run's boot_id, read from home on this connection (a seat's numbers are its). */
  #bootId: string | null = null;
  #readingRun = false;
  /** The seat this client last said it shows: said again on a new connection (spec below). */
  #showing: ClientMessageOf<"showing"> | null = null;

  private constructor(readonly url: string, opts: ConnectOptions) {
    this.#log = new FrameLog(opts.keep);
    this.#checker = opts.validate ? new WireChecker() : null;
    const plan = opts.reconnect ? redialPlan(opts.reconnect) : null;
    this.#roles = new Roles(plan ? { clock: plan.clock, ms: plan.viewMs } : undefined);
  }

  /**
   * Opens a connection. A socket forge refuses rejects with a ConnectFailed saying why (a refused
   * origin names `[server] allowed_origins`); nothing listening says so too.
   */
  static async connect(url: string, opts: ConnectOptions = {}): Promise<ForgeClient> {
    const client = new ForgeClient(url, opts);
    client.#link = await ForgeLink.open(url, opts, client.#owner());
    return client;
  }

  /** The socket in use now (a new one after each reconnect). */
  get socket(): WebSocket {
    return this.#link.socket;
  }

  /** Whether a socket is open now (false while a redial runs, and once closed). */
  get isOpen(): boolean {
    return this.#link.isOpen;
  }

  /** The server run this connection reads (home's boot_id), once a follow of a seat asked it. */
  get bootId(): string | null {
    return this.#bootId;
  }

  /** Hears the link go down and come back (`reconnect` only); returns the undo. */
  onLink(fn: (e: LinkEvent) => void): () => void {
    this.#linkListeners.add(fn);
    return () => this.#linkListeners.delete(fn);
  }

  /** Every frame received, oldest first (the newest `keep` of them when bounded). */
  get frames(): Frame[] {
    return this.#log.frames;
  }

  /** Whether the connection is over (closed by either side). */
  get isClosed(): boolean {
    return this.#link.isClosed;
  }

  /**
   * Sends one client message, typed by its `kind`. Throws a ConnectionClosed once closed, or
   * while a redial runs; an `unsubscribe`, `terminal_detach` or `browser_detach` then is no
   * error: the subscription or viewer is let go and not asked for on the next socket (the old
   * one's died with it); nor is a `terminal_pause`: it is in force on the next socket.
   */
  send<K extends ClientKind>(message: Extract<ClientMessage, { kind: K }>): void {
    const m = message as ClientMessage;
    if (!this.isOpen && !this.isClosed) {
      // Let go while down: the old socket's died with it, and the next one does not ask again.
      if (m.kind === "unsubscribe") return this.#subs.sent(m);
      if (m.kind === "terminal_detach" || m.kind === "browser_detach") {
        this.#roles.sent(m);
        return this.#views.sent(m);
      }
      if (m.kind === "terminal_pause") return this.#roles.sent(m);
    }
    this.#out(m, m.kind, JSON.stringify(m));
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
   * Sends one message and answers once forge has taken it, or rejects with the ForgeRefusal it
   * answered instead: for a message with no reply of its own, whose refusal is an `error` frame
   * naming no request (`showing`, `voice_mode`, `terminal_resize`, ...). The message goes between
   * two pings; forge reads a connection's messages in order, so an `error` before the second
   * pong is this message's. spec: What a client sends > ping.
   */
  sendChecked<K extends ClientKind>(
    message: Extract<ClientMessage, { kind: K }>,
    ms?: number,
  ): Promise<null> {
    try {
      this.#refuseIfClosed(`\`${message.kind}\``);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.#desk.check(message as ClientMessage, ms);
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

  /**
   * Runs a verb that answers by reply (VERB_REPLIES: browser_tabs, browser_view(_page),
   * terminal_view, commit_diff) to its answer, typed by its schema; `{"ok": false, "why"}` rejects
   * with a ForgeRefusal. spec: browser_tabs, browser_view, terminal_view.
   */
  verb<K extends ReplyVerb>(m: { kind: K } & Omit<ClientMessageOf<K>, "reply_to">, ms?: number) {
    const kind = m.kind;
    const read = (body: Wire) => readVerbReply(kind, body) as Wire;
    // A throw in the executor (a closed connection's refusal) rejects, as `command`'s does.
    return new Promise<Wire>((resolve) => {
      this.#refuseIfClosed(`\`${kind}\``);
      resolve(this.#desk.verb((reply_to) => ({ ...m, reply_to }) as ClientMessage, read, ms));
    }) as Promise<VerbReplyOf<K>>;
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
    // A seat's numbers belong to one server run: a client that may reconnect learns which first.
    if (typeof subject === "object" && this.#link.reconnects && this.#bootId === null) {
      this.#readRun();
    }
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
    return this.#link.closed();
  }

  /** Closes the connection: every wait still out fails now with a ConnectionClosed. */
  close(): Promise<void> {
    return this.#link.close();
  }

  describeTail(n = 5): string {
    return this.frames.slice(-n).map((f) =>
      f.type === "json" ? JSON.stringify(f.data).slice(0, 160) : `<binary kind ${f.kind}>`
    ).join(" | ");
  }

  /** Sends `text`; `own`: the client's, not the caller's (no subscription it opens is held). */
  #out(message: unknown, what: string, text: string, own = false): void {
    this.#refuseIfClosed(`\`${what}\``);
    if (what === "showing") this.#showing = message as ClientMessageOf<"showing">;
    if (!own) {
      this.#subs.sent(message);
      this.#views.sent(message);
      this.#roles.sent(message);
    }
    this.#checker?.sent(message);
    this.#desk.sent(message);
    this.socket.send(text);
  }

  #refuseIfClosed(what: string): void {
    this.#link.refuse(what);
  }

  #owner(): LinkOwner {
    return {
      arrived: (frame) => this.#arrived(frame),
      dropped: (down) => this.#dropped(down),
      reopened: (attempt) => this.#reopened(attempt),
      ended: (code, reason) => this.#end(code, reason),
      probe: () => this.#desk.probe(),
      event: (e) => this.#linkListeners.forEach((l) => l(e)),
    };
  }

  /**
   * The socket dropped under a client that reconnects: the commands out can never be answered
   * (and are not sent again: forge may have run them), the follows wait for the next socket.
   */
  #dropped(down: ConnectionClosed): void {
    const { code, reason } = down;
    this.#desk.end(() =>
      new ConnectionClosed(code, reason, "the command got no answer; it is not sent again")
    );
    this.#desk = new CommandDesk((m) => this.send(m));
    this.#bootId = null;
    this.#readingRun = false;
    this.#subs.dropped();
    this.#views.dropped();
    this.#roles.dropped();
    for (const l of [...this.#listeners]) l.dropped?.();
  }

  /**
   * A new socket: the run read first when a seat is followed, then every subscription held asked
   * for again in the order held (a follow's among them), then the terminal and browser tab viewed
   * (at their last size), each with the control it held and a terminal's pause, then the seat
   * shown; `reconnected` is said once each was answered.
   */
  #reopened(attempt: number): void {
    if ([...this.#listeners].some((l) => l.resumesSeat)) this.#readRun();
    const own = (m: ClientMessage) => this.#out(m, m.kind, JSON.stringify(m), true);
    let subs: Restoration | null = null;
    let views: Reattachment | null = null;
    let roles: Regain | null = null;
    const said = () => {
      if (!subs || !views || !roles) return;
      const r = { kind: "reconnected" as const, attempt, ...subs, ...views, ...roles };
      this.#linkListeners.forEach((l) => l(r));
    };
    this.#subs.restore(own, (r) => (subs = r, said()));
    // spec: browser_view: "A connection that goes is detached with it": a viewer is asked for
    // again like a subscription, after them, so its frames flow on the new socket.
    this.#views.restore(own, () => this.#desk.allocateReplyTo(), (r) => {
      views = r;
      this.#roles.restore(r, own, (g) => (roles = g, said()));
    });
    // spec: The socket > Reaching it: "a client re-attaching the seat it is showing must re-send
    // Showing too, because the server's showing died with the old connection".
    if (this.#showing?.seat) this.send(this.#showing);
  }

  /**
   * Asks home for the server run's boot_id: a seat's numbers are minted per run, so numbers held
   * from another run are never joined to this one's (spec: home > boot_id). The snapshot is the
   * client's own; home is let go at once (a follow of home keeps its own subscription).
   */
  #readRun(): void {
    if (this.#readingRun) return;
    for (const m of [{ kind: "subscribe", what: "home" }, { kind: "unsubscribe", what: "home" }]) {
      this.#out(m, m.kind, JSON.stringify(m), true);
    }
    this.#readingRun = true;
  }

  #arrived(frame: Frame): void {
    let claim = null;
    if (frame.type === "json") {
      if (this.#checker) this.schemaErrors.push(...this.#checker.check(frame.data));
      claim = this.#desk.heard(frame.data) ?? this.#heardRun(frame.data);
      if (claim !== "internal") this.#subs.heard(frame.data);
      if (claim !== "internal" && this.#views.heard(frame.data)) claim = "internal";
      if (claim !== "internal") this.#roles.heard(frame.data);
    }
    this.#log.push(frame, claim !== null);
    for (const l of [...this.#listeners]) l.frame(frame, claim === "internal");
  }

  /** The home snapshot #readRun asked for: its boot_id, and the frame is the client's own. */
  #heardRun(m: Record<string, unknown>): "internal" | null {
    if (!this.#readingRun || m.kind !== "snapshot" || m.subject !== "home") return null;
    this.#readingRun = false;
    const id = (m.data as { boot_id?: unknown } | null)?.boot_id;
    this.#bootId = typeof id === "string" ? id : null;
    return "internal";
  }

  #end(code: number, reason: string): void {
    const ended = (doing: string) => () => new ConnectionClosed(code, reason, doing);
    this.#log.end(ended("the wait for a frame ended"));
    this.#desk.end(ended("the command got no answer"));
    for (const l of [...this.#listeners]) l.ended(ended("the follow ended")());
    this.#listeners.clear();
  }
}
