import type {
  ClientMessage,
  ServerMessage,
  SettingsEdit,
  Slot,
  Subject,
  Wire,
} from "../../../../protocol/mod.ts";
import {
  decodeUpdate,
  isBoardNews,
  isFleetNews,
  sameSlot,
  updateSlot,
} from "../../../../protocol/mod.ts";
import { SeatModel } from "../model/seat.ts";
import { Link } from "./link.ts";
import { Store } from "./store.ts";
import { TerminalWire } from "./terminal_wire.ts";

type Obj = Record<string, Wire>;
export type HeldSubject = "usage" | "board";
const obj = (v: unknown): Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? v as Obj : {};

/** spec: ping. The oldest protocol this client knows to answer `ping` with `pong`. */
const PING_SINCE = 29;
/** How many turns a `more` asks for: the same page the snapshot carries. */
const PAGE_TURNS = 20;

/**
 * The page's side of the socket: it owns the link, writes the store, and is the one place that
 * sends. Reconnect rules (spec: the ping section): re-ask the non-seat subjects held, re-attach
 * only the seat on screen, re-send `showing`; a re-attached seat repairs its gap with
 * `seat_range` rather than drawing the snapshot over what it already holds.
 */
export class ForgeClient {
  readonly store = new Store();
  /** What the connection did, for the browser tests and a person at the console. */
  readonly stats = { greetings: 0, rangeAsks: 0 };
  readonly link: Link;
  readonly terminal: TerminalWire;
  #bootId: string | null = null;
  /** The seat needs its snapshot: `fresh` seeds, `reattach` rebases what is held. */
  #awaiting: "fresh" | "reattach" | null = null;
  #timers: Record<string, ReturnType<typeof setTimeout> | undefined> = {};
  /** The keyless subjects a page holds beside the home; re-asked on every reconnect. */
  #held = new Set<HeldSubject>();
  #review = false;
  #saveId = 0;
  /** Replies this page waits on, by reply_to; 1 is the terminal attach's (terminal_wire.ts). */
  #replies = new Map<number, (body: Wire) => void>();
  #replyId = 100;

  constructor(url: string) {
    this.link = new Link(url, {
      onOpen: () => {},
      onMessage: (m) => this.#onMessage(m),
      onBinary: (b) => this.terminal.output(b),
      onState: (link, retryInMs) => {
        this.store.state.link = link;
        this.store.state.retryInMs = retryInMs;
        if (link !== "open") this.terminal.lost();
        this.store.changed();
      },
    });
    this.terminal = new TerminalWire(this);
  }

  get state() {
    return this.store.state;
  }

  start(): void {
    this.link.start();
  }

  send(message: ClientMessage): boolean {
    return this.link.send(message);
  }

  command(name: string, fields: Wire | null, replyTo?: number): void {
    const command = fields === null ? name : { [name]: fields };
    this.send({
      kind: "command",
      command,
      ...(replyTo === undefined ? {} : { reply_to: replyTo }),
    });
  }

  // ---- the seat on screen -------------------------------------------------------------------

  /** Shows a seat: subscribes it as an answerer and says so with `showing` (spec: showing). */
  openSeat(slot: Slot, review = false): void {
    const current = this.state.seat;
    if (current && sameSlot(current.slot, slot)) {
      if (review !== this.#review) {
        // spec: review "follows the page holding the seat": the page's own read re-states it.
        this.#review = review;
        this.#awaiting = "reattach";
        this.send({
          kind: "subscribe",
          what: { session: slot },
          answering: true,
          review,
        });
        this.send({ kind: "unsubscribe", what: { session: slot } });
      }
      return;
    }
    this.closeSeat();
    this.#review = review;
    this.state.seat = new SeatModel(slot);
    this.state.seatError = null;
    this.#awaiting = "fresh";
    this.send({
      kind: "subscribe",
      what: { session: slot },
      answering: true,
      review,
    });
    this.send({ kind: "showing", seat: slot });
    this.store.changed();
  }

  closeSeat(): void {
    const seat = this.state.seat;
    if (!seat) return;
    this.terminal.detach();
    this.send({ kind: "unsubscribe", what: { session: seat.slot } });
    this.send({ kind: "showing", seat: null });
    this.state.seat = null;
    this.state.document = null;
    this.#awaiting = null;
    this.store.changed();
  }

  /** Asks for the page above the oldest turn held (spec: more, walked to the first row). */
  walkUp(): void {
    const seat = this.state.seat;
    if (!seat || seat.cursor === null || this.state.walking) return;
    this.state.walking = true;
    this.send({
      kind: "more",
      conversation: seat.slot,
      before: seat.cursor,
      turns: PAGE_TURNS,
    });
    this.store.changed();
  }

  /**
   * One of the review writes (spec: command > reply_to: "their outcome rides the reply and no
   * update carries it"): answers the reply's body, then reads the record again for the threads.
   */
  reviewWrite(name: string, fields: Wire): Promise<Wire> {
    const id = ++this.#replyId;
    const { promise, resolve } = Promise.withResolvers<Wire>();
    this.#replies.set(id, resolve);
    this.command(name, fields, id);
    return promise.then((body) => {
      this.rereadRecord();
      return body;
    });
  }

  /**
   * Reads the seat's record again, keeping its conversation (a rebase). The socket handles one
   * connection's messages in order, so a read sent after a write sees it.
   */
  rereadRecord(): void {
    if (this.state.seat) this.#rereadRecord(this.state.seat.slot);
  }

  #rereadRecord(slot: Slot): void {
    this.#awaiting = "reattach";
    this.send({
      kind: "subscribe",
      what: { session: slot },
      answering: true,
      review: this.#review,
    });
    this.send({ kind: "unsubscribe", what: { session: slot } });
  }

  // ---- pages that hold a subject ------------------------------------------------------------

  /** Holds (or lets go of) a keyless subject a page draws: `usage`, `board`. */
  hold(subject: HeldSubject, on: boolean): void {
    if (on === this.#held.has(subject)) return;
    if (on) this.#held.add(subject);
    else this.#held.delete(subject);
    this.send({ kind: on ? "subscribe" : "unsubscribe", what: subject });
  }

  /** Asks a held subject again (usage is a scan on the ask; the board's ages move with time). */
  reread(subject: HeldSubject | "home"): void {
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

  #onMessage(m: ServerMessage): void {
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
        if (s.seat && sameSlot(s.seat.slot, m.conversation)) {
          s.seat.prepend(m.turns, m.cursor);
        }
        s.walking = false;
        break;
      case "seat_frames":
        if (s.seat && sameSlot(s.seat.slot, m.slot)) s.seat.repaired(m.frames);
        break;
      case "error":
        this.#error(m);
        break;
      case "file_content":
        s.files.set(`${m.path}@${m.sha ?? ""}`, obj(m.content));
        break;
      case "commit_diff":
        s.commits.set(m.sha, m as unknown as Obj);
        break;
      case "document_read":
        s.document = m as unknown as Obj;
        break;
      case "reply": {
        const waiting = this.#replies.get(m.reply_to);
        this.#replies.delete(m.reply_to);
        if (waiting) waiting(m.body);
        else this.terminal.message(m);
        break;
      }
      case "terminal_view":
      case "terminal_control":
        this.terminal.message(m);
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
    this.#attachSent = false;
    if (this.state.seat) this.#awaiting = "reattach";
  }

  #snapshot(subject: Subject, data: Wire): void {
    const s = this.state;
    if (subject === "home") {
      const home = obj(data);
      const restarted = this.#bootId !== null && home.boot_id !== this.#bootId;
      this.#bootId = typeof home.boot_id === "string" ? home.boot_id : null;
      if (!s.home) performance.mark("forge:home");
      s.home = home;
      // The seat on screen is re-attached once the home says which server run this is: numbers
      // from a dead run never line up with a live one (spec: home > boot_id).
      if (this.#awaiting === "reattach" && s.seat && !this.#attachSent) {
        this.#attachSent = true;
        if (restarted) s.seat.nextSeq = null;
        this.send({
          kind: "subscribe",
          what: { session: s.seat.slot },
          answering: true,
          review: this.#review,
        });
        this.send({ kind: "showing", seat: s.seat.slot });
      }
      return;
    }
    if (subject === "usage" || subject === "board") {
      s[subject] = obj(data);
      return;
    }
    if (
      typeof subject === "object" && s.seat &&
      sameSlot(subject.session, s.seat.slot)
    ) {
      const seat = s.seat;
      if (this.#awaiting === "reattach" && seat.nextSeq !== null) {
        const gap = seat.rebase(data);
        if (gap) {
          this.stats.rangeAsks++;
          this.send({
            kind: "seat_range",
            slot: seat.slot,
            epoch: seat.epoch!,
            ...gap,
          });
        }
      } else {
        seat.seed(data);
      }
      this.#awaiting = null;
      this.#attachSent = false;
    }
  }

  #attachSent = false;

  #update(
    raw: Wire,
    seq: number | null | undefined,
    span: number | undefined,
  ): void {
    const update = decodeUpdate(raw);
    const slot = updateSlot(update);
    const seat = this.state.seat;
    if (slot && seat && sameSlot(slot, seat.slot) && this.#awaiting === null) {
      const got = seat.accept(raw, seq, span);
      if (got.kind === "gap") {
        this.stats.rangeAsks++;
        this.send({
          kind: "seat_range",
          slot: seat.slot,
          epoch: seat.epoch ?? "",
          from: got.from,
          to: got.to,
        });
      }
      // The diff is read once per record and never pushed (spec: session > diff): a review
      // page reads the record again when the tree moves.
      if (update.name === "work_changed" && this.#review) this.#rereadRecord(seat.slot);
      if (update.name === "connected" || update.name === "session_replaced") {
        // A new occupant is a new epoch: read the seat again.
        this.#reread(seat.slot);
      }
    }
    if (slot === null || isFleetNews(update)) this.#soon("home");
    if (this.#held.has("board") && isBoardNews(update)) this.#soon("board");
  }

  #reread(slot: Slot): void {
    this.#awaiting = "fresh";
    this.send({
      kind: "subscribe",
      what: { session: slot },
      answering: true,
      review: this.#review,
    });
    this.send({ kind: "unsubscribe", what: { session: slot } });
  }

  /** A home or board move is a read (spec: update > home's two arms; board): re-ask,
   * coalescing a burst. */
  #soon(subject: "home" | "board"): void {
    clearTimeout(this.#timers[subject]);
    this.#timers[subject] = setTimeout(() => this.reread(subject), 150);
  }

  #error(m: ServerMessage & { kind: "error" }): void {
    const s = this.state;
    s.errors = [...s.errors.slice(-4), { ...m, at: Date.now() }];
    const seat = s.seat;
    if (!seat || !m.seat || !sameSlot(m.seat, seat.slot)) return;
    if (m.what === "subscribe") {
      s.seatError = m.why;
      this.#awaiting = null;
    } else if (m.what === "seat_range") {
      // spec: an error naming seat_range means read the seat again.
      this.#reread(seat.slot);
    } else if (m.what === "more") {
      s.walking = false;
    }
  }
}
