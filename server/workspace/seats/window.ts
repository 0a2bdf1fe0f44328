import type { CliFrame, ConversationTurn, SessionUpdate } from "../../../protocol/mod.ts";
import { toolResultIds, toolUseIds } from "../conversation/turns.ts";
import { foldTurn, type WindowEntry } from "./window_fold.ts";
import { carried, placeInTurns, type Turn } from "./window_turns.ts";

/** spec: session > conversation: "the held window's 64 MiB byte ceiling". */
export const WINDOW_CEILING_BYTES = 64 * 1024 * 1024;
/** spec: session > conversation: the snapshot's page of newest turns, "up to twenty". */
export const SUBSCRIBE_TURNS = 20;
/** How many of the front's frames are looked for on disk (the original's ANCHOR_CANDIDATES). */
export const ANCHOR_CANDIDATES = 8;

/** A turn as a page carries it (protocol/session.ts). spec: more > "Each turn carries key and
 * messages". */
export type WireTurn = ConversationTurn;

/** One transcript turn to seed the window with: its rows (and forged frames, offset null). */
export interface SeedTurn {
  frames: { frame: CliFrame; offset: number | null }[];
}

/** What `page` answers: whole turns, or where the walk goes instead. */
export type WindowPage =
  /** `oldest` is the absolute index of the oldest turn's first held entry; `front` says that
   * turn is the oldest the window holds. */
  | { kind: "page"; turns: WireTurn[]; oldest: number; front: boolean }
  /** Nothing in the window is above the cursor: the walk continues below the floor. */
  | { kind: "below" }
  /** The cursor's entry dropped off the front, or the window never held it. */
  | { kind: "gone" };

/**
 * A seat's held conversation for one occupant, oldest first, bounded by bytes: every numbered
 * update the seat's stream carried (seat_range reads them by number), after the transcript turns
 * a resumed conversation was seeded with (unnumbered), folded into turns.
 *
 * Its turns begin where a transcript page's do (window_turns.ts). Past the ceiling the oldest entries drop off the front, so the oldest turn can be cut.
 */
export class FrameWindow {
  /** This window's name in the cursors it hands out: a cursor of another window is stale. */
  #id = crypto.randomUUID().slice(0, 8);
  #entries: WindowEntry[] = [];
  /** Array index of the oldest live entry: the front is dropped by moving this, then compacted. */
  #head = 0;
  /** Absolute index of the oldest live entry: entries dropped off the front are counted here. */
  #base = 0;
  #turns: Turn[] = [];
  #bytes = 0;
  #compactions = 0;
  #seeded = 0;
  /** The newest page built, reused until the window moves (a subscribe of an idle seat is free). */
  #page: { version: number; turns: number; cap: number; page: WindowPage } | null = null;
  #shownAt: { version: number; index: number } | null = null;
  #version = 0;

  constructor(private readonly ceiling = WINDOW_CEILING_BYTES) {}

  get id(): string {
    return this.#id;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** `compact_boundary` frames the window has held (seeded or live). */
  get compactionCount(): number {
    return this.#compactions;
  }

  /** Whether anything has dropped off the front. */
  get trimmed(): boolean {
    return this.#base > 0;
  }

  /** Whether a numbered entry has dropped off the front. */
  get liveDropped(): boolean {
    return this.#base > this.#seeded;
  }

  /** The held entries, oldest first. */
  entries(): readonly WindowEntry[] {
    return this.#head === 0 ? this.#entries : this.#entries.slice(this.#head);
  }

  get #size(): number {
    return this.#entries.length - this.#head;
  }

  /** Held entries in absolute range [from, to). */
  #slice(from: number, to: number): WindowEntry[] {
    const lo = Math.max(from, this.#base);
    return this.#entries.slice(lo - this.#base + this.#head, to - this.#base + this.#head);
  }

  /** Seeds an empty window with transcript turns (a resumed conversation): unnumbered, each an
   * ended turn with no key (spec: "key is null on every turn of a transcript-derived
   * conversation"). */
  seed(turns: SeedTurn[], wrap: (msg: CliFrame) => SessionUpdate): void {
    if (this.#size > 0 || this.#base > 0) throw new Error("window: only an empty window is seeded");
    for (const turn of turns) {
      if (turn.frames.length === 0) continue;
      this.#turns.push({ start: this.#size, key: null, ended: true, prompts: new Set() });
      for (const { frame, offset } of turn.frames) {
        this.#entries.push(this.#row(frame, offset, wrap));
      }
    }
    this.#seeded = this.#size;
    this.#version++;
    this.#trim();
  }

  /** An unnumbered transcript row as an entry, counted in the window's bytes and compactions. */
  #row(frame: CliFrame, offset: number | null, wrap: (m: CliFrame) => SessionUpdate): WindowEntry {
    const bytes = JSON.stringify(frame).length;
    if (frame.type === "system" && frame.subtype === "compact_boundary") this.#compactions++;
    this.#bytes += bytes;
    return { seq: null, update: wrap(frame), msg: frame, bytes, offset };
  }

  /** Records one numbered update. `bytes` is its encoded size when the caller knows it. */
  push(seq: number, update: SessionUpdate, bytes?: number): void {
    const msg = update.name === "chat_appended"
      ? (update.fields?.msg as CliFrame | undefined) ?? null
      : null;
    const size = bytes ?? JSON.stringify(update.fields ?? null).length;
    const index = this.#base + this.#size;
    this.#version++;
    this.#entries.push({ seq, update, msg, bytes: size, offset: null });
    this.#bytes += size;
    if (msg) this.#place(msg, index);
    this.#trim();
  }

  /** Places transcript rows, unnumbered, just before the held frame carrying `uuid` (in the turn
   * before it when that frame opens one); the window takes a new name, so a cursor whose index
   * moved is read by its anchor. False when no held frame carries `uuid`. */
  insertBefore(
    uuid: string,
    rows: { frame: CliFrame; offset: number }[],
    wrap: (msg: CliFrame) => SessionUpdate,
  ): boolean {
    const at = this.#entries.findIndex((e, i) => i >= this.#head && e.msg?.uuid === uuid);
    if (at < 0 || rows.length === 0) return at >= 0;
    const index = at - this.#head + this.#base;
    const entries = rows.map(({ frame, offset }) => this.#row(frame, offset, wrap));
    this.#entries.splice(at, 0, ...entries);
    for (const turn of this.#turns) if (turn.start >= index) turn.start += entries.length;
    this.#id = crypto.randomUUID().slice(0, 8);
    this.#version++;
    this.#trim();
    return true;
  }

  /**
   * Whole turns, oldest first: the newest ones (`before` null) or the ones above the turn
   * holding entry `before`, up to `turns` and within `capBytes` of chat frames (the newest turn
   * always, however big). Consecutive token appends inside a turn fold into one frame carrying
   * `folded_from` (the run's first number) and `folded_frames` (its length), except a turn's
   * leading run when the front cut the turn (it is served as itself).
   */
  page(before: number | null, turns = SUBSCRIBE_TURNS, capBytes = Infinity): WindowPage {
    if (before === null) {
      const hit = this.#page;
      if (hit && hit.version === this.#version && hit.turns === turns && hit.cap === capBytes) {
        return hit.page;
      }
      const built = this.#build(this.#turns.length, turns, capBytes);
      this.#page = { version: this.#version, turns, cap: capBytes, page: built };
      return built;
    }
    if (before < this.#shown() || before >= this.#base + this.#size) return { kind: "gone" };
    const t = this.#turnOf(before);
    const p = t <= 0 ? null : this.#build(t, turns, capBytes);
    return p && p.kind === "page" && p.turns.length > 0 ? p : { kind: "below" };
  }

  /** The uuid of the first frame at or after `index`, inside its turn, that the CLI also writes
   * to the transcript (a prompt, an assistant message, a tool result): a cursor's anchor. */
  anchor(index: number): string | null {
    const t = this.#turnOf(index);
    const end = t + 1 < this.#turns.length ? this.#turns[t + 1].start : this.#base + this.#size;
    for (const e of this.#slice(index, end)) {
      if (e.msg && carried(e.msg)) return e.msg.uuid as string;
    }
    return null;
  }

  /**
   * The front pages begin at (`shown`), or the oldest held entry: the transcript offset of the
   * first seeded row there, else the uuids of the oldest numbered frames from there that the
   * transcript also carries (at most ANCHOR_CANDIDATES).
   */
  front(shown = true): { offset: number | null; anchors: string[] } {
    const anchors: string[] = [];
    const from = (shown ? this.#shown() : this.#base) - this.#base + this.#head;
    for (let i = from; i < this.#entries.length && anchors.length < ANCHOR_CANDIDATES; i++) {
      const e = this.#entries[i];
      if (e.seq === null) {
        if (e.offset !== null) return { offset: e.offset, anchors: [] };
        continue;
      }
      if (e.msg && carried(e.msg)) anchors.push(e.msg.uuid as string);
    }
    return { offset: null, anchors };
  }

  /**
   * The absolute index pages begin at: the front, or - when the front cut a turn - the first of
   * that turn's entries from which every tool result held has its call held too (spec: "a page
   * never opens on a tool result without the call that produced it"). The entries before it are
   * read from the transcript, where their calls are.
   */
  #shown(): number {
    const cut = this.#turns[0];
    if (!cut || cut.start >= this.#base) return this.#base;
    if (this.#shownAt?.version === this.#version) return this.#shownAt.index;
    const end = this.#turns.length > 1 ? this.#turns[1].start : this.#base + this.#size;
    const waiting = new Set<string>();
    let at = end;
    for (let i = end - 1; i >= this.#base; i--) {
      const msg = this.#entries[i - this.#base + this.#head].msg;
      if (msg) {
        for (const id of toolResultIds(msg)) waiting.add(id);
        for (const id of toolUseIds(msg)) waiting.delete(id);
      }
      if (waiting.size === 0) at = i;
    }
    this.#shownAt = { version: this.#version, index: at };
    return at;
  }

  /** The number of the oldest numbered entry held, or null when none is. */
  firstSeq(): number | null {
    for (let i = this.#head; i < this.#entries.length; i++) {
      const seq = this.#entries[i].seq;
      if (seq !== null) return seq;
    }
    return null;
  }

  /** The numbered entries with `from <= seq <= to`, oldest first. */
  bySeq(from: number, to: number): WindowEntry[] {
    const first = this.firstSeq();
    if (first === null || to < first) return [];
    const out: WindowEntry[] = [];
    const lo = this.#head + Math.max(0, this.#seeded - this.#base);
    // Numbers are increasing but may skip (an update for one connection alone is not held).
    let i = lowerBound(this.#entries, lo, from);
    for (; i < this.#entries.length; i++) {
      const e = this.#entries[i];
      if (e.seq === null) continue;
      if (e.seq > to) break;
      out.push(e);
    }
    return out;
  }

  /** The index of the turn holding absolute entry `index` (-1 when before every turn). */
  #turnOf(index: number): number {
    let lo = 0;
    let hi = this.#turns.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.#turns[mid].start <= index) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The absolute index just past turn `t`. */
  #end(t: number): number {
    return t + 1 < this.#turns.length ? this.#turns[t + 1].start : this.#base + this.#size;
  }

  /** Turns [.., upTo) newest first until `want` or the cap, answered oldest first. */
  #build(upTo: number, want: number, capBytes: number): WindowPage {
    const out: WireTurn[] = [];
    let bytes = 0;
    let oldest = -1;
    let oldestTurn = -1;
    for (let t = upTo - 1; t >= 0 && out.length < want; t--) {
      const turn = this.#turns[t];
      const end = t + 1 < this.#turns.length ? this.#turns[t + 1].start : this.#base + this.#size;
      const first = Math.max(turn.start, this.#shown());
      if (first >= end) break; // the cut turn is all below the shown front
      const chats = this.#slice(first, end).filter((e) => e.msg);
      const size = chats.reduce((n, e) => n + e.bytes, 0);
      if (out.length > 0 && bytes + size > capBytes) break;
      bytes += size;
      out.unshift({ key: turn.key, messages: foldTurn(chats, turn.start < this.#base) });
      oldest = first;
      oldestTurn = t;
    }
    if (oldest < 0) return { kind: "page", turns: [], oldest: this.#shown(), front: true };
    const lowest = this.#turns[0].start < this.#shown() && this.#shown() >= this.#end(0) ? 1 : 0;
    return { kind: "page", turns: out, oldest, front: oldestTurn <= lowest };
  }

  #place(msg: CliFrame, index: number): void {
    if (msg.type === "system" && msg.subtype === "compact_boundary") this.#compactions++;
    placeInTurns(this.#turns, msg, index);
  }

  #trim(): void {
    while (this.#bytes > this.ceiling && this.#size > 1) this.#dropFront();
  }

  #dropFront(): void {
    const gone = this.#entries[this.#head++];
    this.#bytes -= gone.bytes;
    this.#base++;
    this.#version++;
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    // A turn whose every frame is gone is gone; one cut in the middle stays, starting below base.
    let goneTurns = 0;
    while (goneTurns + 1 < this.#turns.length && this.#turns[goneTurns + 1].start <= this.#base) {
      goneTurns++;
    }
    if (goneTurns > 0) this.#turns = this.#turns.slice(goneTurns);
  }
}

/** The first array index at or after `lo` whose numbered entry's seq is >= `seq`. */
function lowerBound(entries: WindowEntry[], lo: number, seq: number): number {
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    let m = mid; // an unnumbered entry (insertBefore) answers as the next numbered one
    while (m < hi && entries[m].seq === null) m++;
    const s = m < hi ? entries[m].seq! : Infinity;
    if (s < seq) lo = m + 1;
    else hi = mid;
  }
  return lo;
}
