import type {
  ClientMessage,
  CommandName,
  NamedSubject,
  SettingsEdit,
  Slot,
  Subject,
  Wire,
  WireCommand,
} from "../../../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../../../server/clock.ts";
import {
  BinaryKind,
  type ErrorFrame,
  isBoardNews,
  isFleetNews,
  sameSlot,
} from "../../../../protocol/mod.ts";
import { BrowserWire } from "./browser_wire.ts";
import { type CommandBody, commandWire, offCommand, type ReplyCommand } from "./commands.ts";
import { Dictation } from "./dictation.ts";
import { readInbound } from "./inbound.ts";
import { DEADLINE_MS, Link, QUIET_MS } from "./link.ts";
import { Replies } from "./replies.ts";
import { SeatAttach } from "./seat_attach.ts";
import { Store } from "./store.ts";
import { Subjects } from "./subjects.ts";
import { TerminalWire } from "./terminal_wire.ts";
import { type HeardUpdate, isNamed, PLUGIN_UPDATES, TAKE_UPDATES } from "./updates.ts";
import { VoiceWire } from "./voice_wire.ts";

/** The keyless subjects a page holds beside the home; re-asked on every reconnect. */
export type HeldSubject = Exclude<NamedSubject, "home">;

/** spec: ping. The oldest protocol this client knows to answer `ping` with `pong`. */
const PING_SINCE = 29;

/**
 * The page's side of the socket: it owns the link, writes the store, and is the one place that
 * sends. Reconnect rules (spec: the ping section): re-ask the non-seat subjects held, re-attach
 * only the seat on screen, re-send `showing`; a re-attached seat repairs its gap with
 * `seat_range` rather than drawing the snapshot over what it already holds.
 */
export class ForgeClient {
  readonly store = new Store();
  /** What the connection did, for the browser tests and a person at the console. */
  readonly stats: { greetings: number; rangeAsks: number; schemaErrors: string[] } = {
    greetings: 0,
    rangeAsks: 0,
    schemaErrors: [],
  };
  readonly link: Link;
  /** The timers the socket, the replies and the history walk run on. */
  readonly clock: Clock;
  readonly terminal: TerminalWire;
  readonly browser = new BrowserWire(this);
  readonly seats = new SeatAttach(this);
  readonly subjects = new Subjects(this);
  readonly dictation = new Dictation(this);
  readonly voice = new VoiceWire(this);
  /** The coalescing re-reads armed, by subject. */
  #timers: Record<string, unknown> = {};
  /** The keyless subjects a page holds beside the home; re-asked on every reconnect. */
  #held = new Set<HeldSubject>();
  /** Every keyless subject this page has asked for: a refusal of one is a page's state, even
   * when it lands after the page let it go (a read refused late, under load). */
  #asked = new Set<HeldSubject>();
  #saveId = 0;
  /** Replies this page waits on, by reply_to; 1 is the terminal attach's (terminal_wire.ts). */
  readonly #replies: Replies;
  /** Who else reads every update this socket brings (the page's own notifications). */
  readonly updateReaders = new Set<(update: HeardUpdate) => void>();

  /** `clock` runs the socket's probe and the replies' bound (a test's moves by hand). */
  constructor(url: string, clock?: Clock) {
    this.clock = clock ?? MONOTONIC;
    this.#replies = new Replies(this.clock);
    this.link = new Link(url, {
      onOpen: () => {},
      onMessage: (m) => this.#onMessage(m),
      onBinary: (b) => {
        if (b[0] === BinaryKind.browser_frame) this.browser.frame(b);
        else if (b[0] === BinaryKind.browser_audio) this.browser.audio(b);
        else this.terminal.output(b);
      },
      onState: (link, retryInMs) => {
        this.store.state.link = link;
        this.store.state.retryInMs = retryInMs;
        if (link !== "open") {
          this.#replies.dropped();
          this.terminal.lost();
          this.browser.lost();
        }
        this.store.changed();
      },
    }, clock ? { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS, clock } : undefined);
    this.terminal = new TerminalWire(this);
  }

  get state() {
    return this.store.state;
  }

  /** The forge's host and port as its address spells them: the name drawn beside its rows. */
  get host(): string {
    return new URL(this.link.url).host;
  }

  start(): void {
    this.link.start();
  }

  send(message: ClientMessage): boolean {
    return this.link.send(message);
  }

  /** A frame this page could not read against protocol/'s schemas: counted and said. */
  offSchema(why: string): void {
    this.stats.schemaErrors.push(why);
    this.note({ kind: "error", what: "schema", why, seat: null, dispatch_id: null });
    this.store.changed();
  }

  /**
   * Sends a command built against protocol/'s COMMANDS; false when there is no socket to send it
   * on (nothing was sent). spec: What a client sends > command.
   */
  command<N extends CommandName>(name: N, fields: CommandBody<N>): boolean {
    return this.send({ kind: "command", command: commandWire(name, fields) });
  }

  /**
   * A command whose body is built at run time (the dock's answer to a held kind it has no drawing
   * of, its field named by protocol/'s table): read with protocol/'s decoder before it goes, so
   * one off its schema is said in words and nothing is sent.
   */
  commandChecked(name: CommandName, fields: Wire): boolean {
    const why = offCommand(name, fields);
    // protocol/'s decoder read it whole, so it is the wire form its type says.
    const command = { [name]: fields } as unknown as WireCommand;
    if (why === null) return this.send({ kind: "command", command });
    this.note({ kind: "error", what: "command", why, seat: null, dispatch_id: null });
    this.store.changed();
    return false;
  }

  /**
   * A command whose outcome rides its reply: answers the reply's body, or rejects with a
   * `ReplyLost` in words (net/replies.ts). spec: command > reply_to.
   */
  commandReply<N extends ReplyCommand>(name: N, fields: CommandBody<N>): Promise<Wire> {
    const command = commandWire(name, fields);
    return this.ask((reply_to) => ({ kind: "command", command, reply_to }));
  }

  /**
   * One of the review writes (spec: command > reply_to: "their outcome rides the reply and no
   * update carries it"): answers the reply's body, then reads the record again for the threads.
   */
  reviewWrite<N extends ReplyCommand>(name: N, fields: CommandBody<N>): Promise<Wire> {
    return this.commandReply(name, fields)
      .then((body) => {
        this.seats.rereadRecord();
        return body;
      });
  }

  /**
   * Sends a message that carries `reply_to` and answers the reply's body; it rejects with a
   * `ReplyLost` saying why in words when the reply cannot come (net/replies.ts).
   */
  ask(build: (replyTo: number) => ClientMessage): Promise<Wire> {
    return this.#replies.ask(build, (m) => this.send(m));
  }

  // The seat on screen (seat_attach.ts).
  openSeat(slot: Slot, review = false): void {
    this.seats.open(slot, review);
  }

  closeSeat(): void {
    this.seats.close();
  }

  walkUp(): void {
    this.seats.walkUp();
  }

  walkAgain(): void {
    this.seats.walkAgain();
  }

  rereadRecord(): void {
    this.seats.rereadRecord();
  }

  // ---- pages that hold a subject ------------------------------------------------------------

  /** Holds (or lets go of) a keyless subject a page draws. */
  hold(subject: HeldSubject, on: boolean): void {
    if (on === this.#held.has(subject)) return;
    if (on) this.#held.add(subject);
    else this.#held.delete(subject);
    if (on) this.#asked.add(subject);
    this.send({ kind: on ? "subscribe" : "unsubscribe", what: subject });
  }

  /** Asks a held subject again (usage is a scan on the ask; the board's ages move with time). */
  reread(subject: HeldSubject | "home"): void {
    if (subject !== "home") this.#asked.add(subject);
    this.send({ kind: "subscribe", what: subject });
    this.send({ kind: "unsubscribe", what: subject });
  }

  /** Saves a batch of edits; the answer lands in `state.saves` under the returned id. */
  saveSettings(edits: SettingsEdit[]): number {
    const id = ++this.#saveId;
    const fingerprint = this.state.settings?.fingerprint ?? "";
    this.state.saves.set(id, { kind: "pending" });
    this.send({ kind: "settings_edit", fingerprint, id, edits });
    this.store.changed();
    return id;
  }

  // ---- inbound ------------------------------------------------------------------------------

  /**
   * Every frame is checked against protocol/'s schemas before anything reads it, in one pass
   * (inbound.ts); one that does not fit is counted, said, and dropped, never half-drawn.
   */
  #onMessage(raw: Wire): void {
    const read = readInbound(raw);
    if (!read.ok) return this.offSchema(read.why);
    const m = read.frame;
    const s = this.state;
    switch (m.kind) {
      case "greeting":
        s.greeting = m;
        if (this.stats.greetings++ === 0) performance.mark("forge:greeting");
        this.link.pingable = m.version >= PING_SINCE;
        this.#afterGreeting();
        break;
      case "settings":
        s.settings = m.document;
        break;
      case "settings_saved":
        s.saves.set(m.id, { kind: "saved" });
        break;
      case "settings_refused":
        s.saves.set(m.id, { ...m, kind: "refused" });
        break;
      case "snapshot":
        this.#snapshot(m.subject, m.data);
        break;
      case "update":
        this.#update(m.update, m.seq, m.span);
        break;
      case "page":
        this.seats.page(m);
        break;
      case "seat_frames":
        for (const f of m.frames) if (f.update.known === "invalid") this.offSchema(f.update.why);
        this.seats.frames(m);
        break;
      case "error":
        this.#error(m);
        break;
      case "file_content":
      case "commit_diff":
        this.seats.reviewRead(m);
        break;
      case "document_read":
        s.document = m;
        break;
      case "reply": {
        if (!this.#replies.answer(m.reply_to, m.body)) this.terminal.message(m);
        break;
      }
      case "terminal_view":
      case "terminal_control":
        this.terminal.message(m);
        break;
      case "browser_view":
      case "browser_nav_state":
      case "browser_tabs":
      case "browser_surface_failed":
      case "browser_file_dialog":
      case "browser_download":
        this.browser.message(m);
        break;
      default:
        break;
    }
    this.store.changed();
  }

  #afterGreeting(): void {
    // spec: answering is declared on the first subscribe and sticks for the connection.
    this.send({ kind: "subscribe", what: "home", answering: true });
    for (const subject of this.#held) this.send({ kind: "subscribe", what: subject });
    this.seats.reconnected();
  }

  #snapshot(subject: Subject, data: Wire): void {
    if (typeof subject === "object") return this.seats.snapshot(subject.session, data);
    if (subject !== "home" && this.state.refusedReads[subject]) {
      const { [subject]: _read, ...rest } = this.state.refusedReads;
      this.state.refusedReads = rest;
    }
    const read = this.subjects.snapshot(subject, data);
    if (read) this.seats.home(read.restarted);
  }

  #update(u: HeardUpdate, seq: number | null, span: number | undefined): void {
    for (const read of this.updateReaders) read(u);
    const slot = u.key;
    const seat = this.state.seat;
    if (slot && seat && sameSlot(slot, seat.slot)) this.seats.update(u, seq, span);
    if (isNamed(u, ...TAKE_UPDATES)) this.dictation.update(u);
    if (isNamed(u, "voice_audio")) this.voice.update(u);
    if (isNamed(u, "terminal_changed")) this.terminal.update(u);
    if (
      isNamed(u, "accounts_changed", "dictate_models_changed", "service_status", ...PLUGIN_UPDATES)
    ) {
      this.subjects.update(u);
    }
    // A seat's own words about a press that failed (a mode or model switch); a failed CLI is
    // drawn under its seat's header instead (views/seat_controls.tsx).
    if (slot && u.name.endsWith("_failed") && u.name !== "connection_failed") {
      const why = typeof u.bag.message === "string" ? u.bag.message : u.name;
      this.note({ kind: "error", what: u.name, why, seat: slot, dispatch_id: null });
    }
    // The routing rule is protocol/'s, read off the update table (protocol/update.ts).
    const typed = u.known === true;
    if (slot === null || (typed && isFleetNews(u))) this.#soon("home");
    if (this.#held.has("board") && typed && isBoardNews(u)) this.#soon("board");
    // spec: dictate_models - the preflight's landing is announced with dictate_availability
    // alone, and a page holding the subject reads it again rather than drawing pending chips.
    if (this.#held.has("dictate_models") && isNamed(u, "dictate_availability")) {
      this.#soon("dictate_models");
    }
  }

  /** A home, board or models move is a read (spec: update > home's two arms; board;
   * dictate_models): re-ask, coalescing a burst, on the client's clock. */
  #soon(subject: HeldSubject | "home"): void {
    this.clock.clear(this.#timers[subject]);
    this.#timers[subject] = this.clock.set(() => {
      this.#timers[subject] = undefined;
      this.reread(subject);
    }, 150);
  }

  /** Words for the notices (the newest five are kept): forge's refusals and the page's own. */
  note(m: ErrorFrame): void {
    this.state.errors = [...this.state.errors.slice(-4), { ...m, at: Date.now() }];
  }

  #error(m: ErrorFrame): void {
    // A refused prompt is said once, by the composer that puts its words back.
    if (this.seats.error(m)) return;
    // spec: Subjects - a refused subscribe names the subject first in its words; a page that
    // waits on that subject draws the words instead of waiting for a snapshot that never comes
    // (views/read_refused.tsx). That is the page's state, said there: not also an alert on
    // every page after (a subsystem that is off, as dictation by default, refuses every read).
    if (m.what === "subscribe" && m.seat === null) {
      const subject = [...this.#asked].find((h) => m.why.startsWith(`${h}: `));
      if (subject) {
        this.state.refusedReads = { ...this.state.refusedReads, [subject]: m.why };
        return;
      }
    }
    this.note(m);
  }
}
