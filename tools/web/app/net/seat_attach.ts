import type { ErrorFrame, ServerMessage, Slot, Wire } from "../../../../protocol/mod.ts";
import { sameSlot } from "../../../../protocol/mod.ts";
import { SeatModel } from "../model/seat.ts";
import type { ClientCore } from "./client_core.ts";
import { HistoryWalk } from "./history_walk.ts";
import { narrowSession } from "./narrow.ts";
import { fileKey } from "./store.ts";
import type { Inbound } from "./inbound.ts";
import type { HeardUpdate } from "./updates.ts";

/** How many turns a `more` asks for: the same page the snapshot carries. */
const PAGE_TURNS = 20;

/**
 * What the seat's attach uses of its client beyond the core: the count of `seat_range` asks, and
 * the parts a seat's leaving ends (its terminal, its speech, its dictation) or its return resumes.
 */
export interface SeatClient extends ClientCore {
  readonly stats: { rangeAsks: number };
  readonly terminal: { detach(): void };
  readonly voice: { shown(slot: Slot): void; left(slot: Slot): void };
  readonly dictation: { left(): void };
}

/**
 * The seat on screen and its subscription: attach as an answerer with `showing`, walk its
 * history with `more`, feed its numbered frames to the model and repair their gaps with
 * `seat_range`, and re-attach it after a reconnect. spec: subscribe > answering; showing; more;
 * seat_range; the ping section ("re-attach only the seat they have on screen ... re-send Showing").
 */
export class SeatAttach {
  /** The seat needs its snapshot: `fresh` seeds, `reattach` rebases what is held. */
  #awaiting: "fresh" | "reattach" | null = null;
  #attachSent = false;
  #review = false;
  #walkOf: HistoryWalk | null = null;

  constructor(private readonly client: SeatClient) {}

  /** Made on first use: the client's clock is set after its fields are. */
  get #walk(): HistoryWalk {
    const c = this.client;
    return this.#walkOf ??= new HistoryWalk(
      c.state,
      (m) => c.send(m),
      () => c.store.changed(),
      c.clock,
    );
  }

  get #state() {
    return this.client.state;
  }

  /** Shows a seat: subscribes it as an answerer and says so with `showing` (spec: showing). */
  open(slot: Slot, review = false): void {
    const current = this.#state.seat;
    if (current && sameSlot(current.slot, slot)) {
      // spec: review "follows the page holding the seat": the page's own read re-states it.
      if (review !== this.#review) {
        this.#review = review;
        this.#read(slot, "reattach");
      }
      return;
    }
    this.close();
    this.#review = review;
    this.#walk.reset();
    this.#state.seat = new SeatModel(slot);
    this.#state.seatError = null;
    this.#awaiting = "fresh";
    this.#subscribe(slot);
    this.client.send({ kind: "showing", seat: slot });
    // spec: voice_mode - a return to a seat this page listened to resumes it.
    this.client.voice.shown(slot);
    this.client.store.changed();
  }

  close(): void {
    const seat = this.#state.seat;
    if (!seat) return;
    this.client.terminal.detach();
    this.client.voice.left(seat.slot);
    this.client.dictation.left();
    this.client.send({ kind: "unsubscribe", what: { session: seat.slot } });
    this.client.send({ kind: "showing", seat: null });
    this.#state.seat = null;
    this.#state.document = null;
    this.#state.files.clear();
    this.#state.commits.clear();
    this.#awaiting = null;
    this.client.store.changed();
  }

  /** Asks for the page above the oldest turn held (spec: more, walked to the first row). */
  walkUp(): void {
    const seat = this.#state.seat;
    if (!seat || seat.cursor === null) return;
    this.#walk.up(seat.slot, seat.cursor, PAGE_TURNS);
  }

  /** The person pressed Retry after the walk gave up. */
  walkAgain(): void {
    this.#walk.reset();
    this.walkUp();
  }

  /**
   * Reads the seat's record again, keeping its conversation (a rebase). The socket handles one
   * connection's messages in order, so a read sent after a write sees it.
   */
  rereadRecord(): void {
    if (this.#state.seat) this.#read(this.#state.seat.slot, "reattach", false);
  }

  /** A new connection: the seat on screen waits for the home to say which server run this is. */
  reconnected(): void {
    this.#attachSent = false;
    // The tree may have moved while the page was away.
    this.#treeMoved();
    // A `more` out on the old connection will never be answered.
    this.#walk.reset();
    const seat = this.#state.seat;
    if (seat) {
      this.#awaiting = "reattach";
      seat.prompts.forget();
    }
  }

  /**
   * The home arrived: re-attach the seat on screen (once per connection). Numbers from a dead
   * server run never line up with a live one, so a restart reseeds (spec: home > boot_id).
   */
  home(restarted: boolean): void {
    const seat = this.#state.seat;
    if (this.#awaiting !== "reattach" || !seat || this.#attachSent) return;
    this.#attachSent = true;
    if (restarted) seat.nextSeq = null;
    this.#subscribe(seat.slot);
    this.client.send({ kind: "showing", seat: seat.slot });
    // The server's listener set died with the old connection: say it again.
    this.client.voice.shown(seat.slot);
  }

  snapshot(slot: Slot, raw: Wire): void {
    const seat = this.#state.seat;
    if (!seat || !sameSlot(slot, seat.slot)) return;
    const read = narrowSession(raw);
    if (!read.ok) {
      this.client.offSchema(read.why);
      this.#awaiting = null;
      return;
    }
    const data = read.data;
    if (this.#awaiting === "reattach" && seat.nextSeq !== null) {
      const gap = seat.rebase(data);
      if (gap) this.#range(seat, gap);
    } else {
      seat.seed(data);
    }
    this.#awaiting = null;
    this.#attachSent = false;
  }

  /** One update for the seat on screen; frames before its snapshot are the snapshot's. */
  update(update: HeardUpdate, seq: number | null, span?: number): void {
    const seat = this.#state.seat;
    if (!seat || this.#awaiting !== null) return;
    const got = seat.accept(update, seq, span);
    if (got.kind === "gap") this.#range(seat, got);
    // The diff is read once per record and never pushed (spec: session > diff): a review
    // page reads the record again when the tree moves, and no file read of the old tree is kept.
    if (update.name === "work_changed") {
      this.#treeMoved();
      if (this.#review) this.#read(seat.slot, "reattach");
    }
    // spec: subscribe > review - "a read a page asks for on a notice - a review write, another
    // client's activity - is an ordinary record read", so a review notice reads without the
    // base check; the page's own reads (open, the tree moving, a reconnect) keep the flag.
    const notice = update.name === "review_threads_changed" ||
      update.name === "review_activity_notice";
    if (notice && this.#review) this.#read(seat.slot, "reattach", false);
    // A new occupant is a new epoch: read the seat again.
    if (update.name === "connected" || update.name === "session_replaced") {
      this.#read(seat.slot, "fresh");
    }
  }

  /** A file or commit read (spec: file_content, commit_diff); one for a seat left is dropped. */
  reviewRead(m: Extract<Inbound, { kind: "file_content" | "commit_diff" }>): void {
    const seat = this.#state.seat;
    if (!seat || !sameSlot(seat.slot, m.session)) return;
    if (m.kind === "file_content") this.#state.files.set(fileKey(m.path, m.sha), m);
    else this.#state.commits.set(m.sha, m);
  }

  page(m: ServerMessage & { kind: "page" }): void {
    const seat = this.#state.seat;
    if (seat && sameSlot(seat.slot, m.conversation)) seat.prepend(m.turns, m.cursor, m.cron_names);
    this.#walk.landed();
  }

  frames(m: Extract<Inbound, { kind: "seat_frames" }>): void {
    const seat = this.#state.seat;
    if (seat && sameSlot(seat.slot, m.slot)) seat.repaired(m.frames);
  }

  /** An error frame; answers true when the composer says it (a refused prompt's). */
  error(m: ErrorFrame): boolean {
    const seat = this.#state.seat;
    if (!seat || !m.seat || !sameSlot(m.seat, seat.slot)) return false;
    if (m.what === "subscribe") {
      this.#state.seatError = m.why;
      this.#awaiting = null;
    } else if (m.what === "seat_range") {
      // spec: an error naming seat_range means read the seat again.
      this.#read(seat.slot, "fresh");
    } else if (m.what === "more") {
      this.#walk.refused(m.why, () => this.walkUp());
    } else if (seat.prompts.refused(m)) {
      // A refused prompt's words go back to the composer, which says why beside them
      // (model/sent_prompts.ts).
      seat.version++;
      return true;
    }
    return false;
  }

  /** The working tree's file reads are of a tree that is gone; a commit's never change. */
  #treeMoved(): void {
    const files = this.#state.files;
    for (const [key, read] of files) if (read.sha === null) files.delete(key);
  }

  #range(seat: SeatModel, gap: { from: number; to: number }): void {
    this.client.stats.rangeAsks++;
    this.client.send({
      kind: "seat_range",
      slot: seat.slot,
      epoch: seat.epoch ?? "",
      from: gap.from,
      to: gap.to,
    });
  }

  #subscribe(slot: Slot, review = this.#review): void {
    // spec: answering is declared on every seat subscribe; it sticks for the connection anyway.
    this.client.send({ kind: "subscribe", what: { session: slot }, answering: true, review });
  }

  /**
   * A read of a seat already subscribed: a second entry, then one let go (counted). `review` is
   * the page's own flag unless the read is a notice's (then false: an ordinary record read).
   */
  #read(slot: Slot, mode: "fresh" | "reattach", review = this.#review): void {
    this.#awaiting = mode;
    // Already asked: a home landing before this snapshot must not ask again.
    this.#attachSent = true;
    this.#subscribe(slot, review);
    this.client.send({ kind: "unsubscribe", what: { session: slot } });
  }
}
