import {
  type CliFrame,
  type SessionUpdate,
  type Slot,
  slotName,
  type Wire,
} from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import { Refusal } from "../../subsystem.ts";
import {
  clampTurns,
  countCompactions,
  decodeCursor,
  encodeCursor,
  pageRows,
  parseRowCursor,
  rowsAtUuids,
  type WireCursor,
} from "../conversation/mod.ts";
import { Lock } from "../../lock.ts";
import { capToolRecord } from "./records.ts";
import { placeLateRows } from "./late_rows.ts";
import { type RangeFrame, rangeFrames } from "./seat_range.ts";
import {
  type DiskRead,
  EMPTY_PAGE,
  pageAboveAnchor,
  pageAboveRow,
  type PageBody,
  withCronNames,
} from "./transcript_pages.ts";
import { FrameWindow, SUBSCRIBE_TURNS, type WindowPage } from "./window.ts";

/** The bounds read from `[server]` at each use (both keys are next_session; a page reads now). */
export interface ConversationCaps {
  /** `first_frame_cap_kb` in bytes: a page's bound, the snapshot's included. */
  pageBytes: number;
  /** `tool_record_cap_kb` in bytes. */
  recordBytes: number;
}

export interface ConversationOptions {
  slot: Slot;
  session: string;
  /** Its transcript (claude/paths.ts); null when it could not be named. */
  transcript: string | null;
  /** Seeds the window from the transcript's newest page: a resumed or remembered session. */
  seed: boolean;
  caps(): ConversationCaps;
  /** Another session's transcript, when the seat knows it (a cursor of an earlier occupant). */
  transcriptOf(session: string): string | null;
  /** The schedule a fired prompt came from, by its uuid (spec: page > cron_names). */
  cronName?: (promptUuid: string) => string | undefined;
  log: Logger;
  /** The window's byte ceiling (window.ts; tests lower it). */
  ceiling?: number;
}

/**
 * One occupant's conversation, the window above (window.ts) and its transcript below
 * (conversation/): what `more`, `seat_range` and the snapshot's `conversation` read. spec: more,
 * seat_range, page, seat_frames; session > conversation; "The cursor is a position".
 *
 * The FLOOR is the transcript row the window's oldest held entry stands on; rows above it are read
 * from disk. While nothing has dropped off the front it is exact: the oldest seeded row of a
 * resumed conversation (null - nothing above - for a fresh session, whose window holds it all).
 * Once the front drops, it is the seeded row now at the front, or else the smallest offset of the
 * rows the CLI wrote for the oldest frames a page shows (their uuids, up to ANCHOR_CANDIDATES of
 * them: window.ts; a turn the ceiling cut is shown from where no tool result lacks its call), so no
 * row a window page carries is read again.
 *
 * A page the window can answer is whole turns from memory; past the window's oldest turn the
 * page is read from the transcript above the floor; a cursor of a window that is gone continues
 * on disk above its turn's anchor row (transcript_pages.ts, the disk side). Frames read from disk
 * pass the tool record bound (records.ts), as live ones did.
 */
export class SeatConversation {
  readonly window: FrameWindow;
  #ready: Promise<void> | null = null;
  /** The oldest seeded row, when rows sit above the seeded turns. */
  #seedFloor: number | null = null;
  /** The transcript's size when this occupant began: where the rows it writes start. */
  #liveBegin = 0;
  #compactionsAbove = 0;
  /** Where rows the resumed CLI wrote without sending them may start; null once none can. */
  #lateFrom: number | null = null;
  /** Catch-ups one at a time: two reads at once must not place the same late rows twice. */
  readonly #catchUps = new Lock();
  #anchored: { key: string; offset: number | null } | null = null;

  constructor(private readonly o: ConversationOptions) {
    this.window = new FrameWindow(o.ceiling);
  }

  get session(): string {
    return this.o.session;
  }

  get transcript(): string | null {
    return this.o.transcript;
  }

  /** Compactions in the whole conversation: the window's and the transcript's above it. */
  get compactionCount(): number {
    return this.window.compactionCount + this.#compactionsAbove;
  }

  /** Resolves once the window is seeded (once; at once for a fresh session). */
  ready(): Promise<void> {
    this.#ready ??= this.o.seed ? this.#seed() : Promise.resolve();
    return this.#ready;
  }

  /** The snapshot's `conversation`: the newest page, the compaction count and the cursor. */
  async snapshot(): Promise<Wire> {
    const body = await this.more(null, SUBSCRIBE_TURNS);
    return {
      ...body,
      compaction_count: this.compactionCount,
    };
  }

  /**
   * `more`: the page above `before` (null: the newest), with `cron_names` for the fired prompts
   * it carries whichever side answered it. Refuses a cursor it cannot place.
   */
  async more(before: string | null, turns: number): Promise<PageBody> {
    return withCronNames(await this.#more(before, turns), this.o.cronName);
  }

  async #more(before: string | null, turns: number): Promise<PageBody> {
    await this.ready();
    await this.#catchUp();
    const n = clampTurns(turns);
    const cap = this.o.caps().pageBytes;
    if (before === null) return await this.#fromWindow(this.window.page(null, n, cap), n);
    const c = decodeCursor(before);
    if (!c) throw this.#refuse(`\`${before}\` is not a cursor this server hands out`);
    if (c.session !== this.o.session) {
      // An earlier occupant's conversation: its own transcript, when the seat knows it.
      const path = this.o.transcriptOf(c.session);
      if (!path) return { ...EMPTY_PAGE };
      return c.side === "row"
        ? await pageAboveRow(path, c.session, c.offset, n, this.#disk())
        : await this.#byAnchor(path, c, n);
    }
    if (c.side === "row") {
      return await pageAboveRow(this.o.transcript, c.session, c.offset, n, this.#disk());
    }
    if (c.window === this.window.id) {
      const p = this.window.page(c.index, n, cap);
      if (p.kind === "page") return await this.#fromWindow(p, n);
      if (p.kind === "below") return await this.#belowFloor(n);
    }
    return await this.#byAnchor(this.o.transcript, c, n);
  }

  /** `seat_range` for numbers the caller checked (seat_range.ts). */
  async range(from: number, to: number): Promise<RangeFrame[]> {
    await this.ready();
    return await rangeFrames(this.window, from, to, {
      transcript: this.o.transcript,
      liveStart: () => this.#liveStart(),
      wrap: (msg) => this.#wrap(msg),
    });
  }

  // ---- the window, the floor and the disk -------------------------------------------------

  async #seed(): Promise<void> {
    const path = this.o.transcript;
    if (!path) return;
    const caps = this.o.caps();
    try {
      this.#liveBegin = await sizeOf(path);
      this.#lateFrom = this.#liveBegin;
      const got = await pageRows(path, null, SUBSCRIBE_TURNS, { pageBytes: caps.pageBytes });
      this.window.seed(
        got.turns.map((t) => ({
          frames: [
            ...t.rows.map((r) => ({ frame: this.#cap(r.frame), offset: r.offset })),
            ...t.forged.map((frame) => ({ frame, offset: null })),
          ],
        })),
        (msg) => this.#wrap(msg),
      );
      this.#seedFloor = got.cursor === null ? null : parseRowCursor(got.cursor);
      if (this.#seedFloor !== null) {
        this.#compactionsAbove = await countCompactions(path, this.#seedFloor);
      }
    } catch (err) {
      // The window stays empty; the walk reads the whole transcript from disk instead.
      this.o.log.warn("seat_conversation_seed_failed", {
        seat: slotName(this.o.slot),
        path,
        error: err,
      });
      this.#seedFloor = this.#liveBegin > 0 ? this.#liveBegin : null;
    }
  }

  /** Rows the resumed CLI wrote without sending them (late_rows.ts), placed before a read. */
  #catchUp(): Promise<void> {
    return this.#catchUps.run(async () => {
      const path = this.o.transcript;
      if (this.#lateFrom === null || !path) return;
      // Once live frames dropped off the window, rows above it are read from disk: none is late.
      if (this.window.liveDropped) return void (this.#lateFrom = null);
      try {
        const wrap = (msg: CliFrame) => this.#wrap(msg);
        const prepare = (msg: CliFrame) => this.#cap(msg);
        if (await placeLateRows(this.window, path, this.#lateFrom, prepare, wrap)) {
          this.#lateFrom = null;
        }
      } catch (err) {
        const seat = slotName(this.o.slot);
        this.o.log.warn("seat_conversation_catch_up_failed", { seat, path, error: err });
        this.#lateFrom = null;
      }
    });
  }

  /** A window page as the wire carries it; an empty one reads below the floor instead, so an
   * empty page always means nothing above (spec: "An empty page carries cursor: null"). */
  async #fromWindow(p: WindowPage, n: number): Promise<PageBody> {
    if (p.kind !== "page" || p.turns.length === 0) return await this.#belowFloor(n);
    const above = !p.front || this.window.trimmed || this.#seedFloor !== null;
    if (!above) return { turns: p.turns, cursor: null };
    const cursor: WireCursor = {
      side: "window",
      session: this.o.session,
      window: this.window.id,
      index: p.oldest,
      anchor: this.window.anchor(p.oldest),
    };
    return { turns: p.turns, cursor: encodeCursor(cursor) };
  }

  async #belowFloor(n: number): Promise<PageBody> {
    const floor = await this.#floor();
    if (floor === null) return { ...EMPTY_PAGE };
    return await pageAboveRow(this.o.transcript, this.o.session, floor, n, this.#disk());
  }

  /** A cursor whose window is gone: the page above its turn's anchor row, on disk. */
  async #byAnchor(
    path: string | null,
    c: Extract<WireCursor, { side: "window" }>,
    n: number,
  ): Promise<PageBody> {
    if (c.anchor === null) {
      throw this.#refuse(
        "the cursor's window is gone and its turn held no row the transcript carries; read the seat again",
      );
    }
    return await pageAboveAnchor(path, c.session, c.anchor, n, this.#disk());
  }

  /** How this conversation's pages are read off disk: the bounds in force now. */
  #disk(): DiskRead {
    return { pageBytes: this.o.caps().pageBytes, cap: (frame) => this.#cap(frame) };
  }

  /** The floor (see the class note); null when nothing is above the window or it is not found. */
  async #floor(): Promise<number | null> {
    if (!this.window.trimmed) return this.#seedFloor;
    const front = this.window.front();
    if (front.offset !== null) return front.offset;
    return await this.#anchorFloor(front.anchors);
  }

  /** Where the window's numbered frames begin in the transcript (seat_range below the window). */
  async #liveStart(): Promise<number | null> {
    if (!this.window.liveDropped) return this.#liveBegin;
    return await this.#anchorFloor(this.window.front(false).anchors);
  }

  async #anchorFloor(anchors: string[]): Promise<number | null> {
    const key = anchors.join(",");
    if (this.#anchored?.key === key) return this.#anchored.offset;
    const path = this.o.transcript;
    const found = path ? await rowsAtUuids(path, anchors) : new Map<string, number>();
    const offset = found.size > 0 ? Math.min(...found.values()) : null;
    this.#anchored = { key, offset };
    return offset;
  }

  #cap(frame: CliFrame): CliFrame {
    return capToolRecord(frame, this.o.caps().recordBytes);
  }

  #wrap(msg: CliFrame): SessionUpdate {
    return { name: "chat_appended", fields: { key: this.o.slot, msg: this.#cap(msg) } };
  }

  #refuse(why: string): Refusal {
    return new Refusal("more", `more: ${slotName(this.o.slot)}: ${why}`, this.o.slot);
  }
}

/** A file's size; 0 when there is none. */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return 0;
    throw err;
  }
}
