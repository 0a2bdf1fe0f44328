import { type SessionUpdate, type Slot, slotName, type Wire } from "../../../protocol/mod.ts";
import { Refusal } from "../../subsystem.ts";
import { SeatConversation } from "./conversation.ts";
import type { PageBody } from "./transcript_pages.ts";
import type { RangeFrame } from "./seat_range.ts";
import type { SeatEnv } from "./env.ts";
import type { SessionRecord } from "./session_book.ts";
import { FrameWindow } from "./window.ts";
import { noConversation } from "./rows.ts";

/** How many earlier sessions' transcripts a seat keeps naming (their cursors stay pageable). */
const KNOWN_SESSIONS = 16;

/**
 * A seat's conversations: the current (or last) occupant's, which the seat's reads and the
 * `more` / `seat_range` verbs answer from, and the transcripts of the sessions it held before, so
 * a cursor an earlier occupant's page handed out still pages that conversation. The last one is
 * written to the session book (session_book.ts) as each occupant begins, so after a restart a
 * seat with no live session pages its last transcript, seeded lazily.
 */
export class SeatHistory {
  #conv: SeatConversation | null = null;
  readonly #known = new Map<string, string>();
  /** An empty window, for a seat that never held a conversation. */
  readonly #none = new FrameWindow();

  constructor(private readonly slot: Slot, private readonly env: SeatEnv) {}

  /** The current conversation's window (an empty one when there is none). */
  get window(): FrameWindow {
    return this.#conv?.window ?? this.#none;
  }

  get conversation(): SeatConversation | null {
    return this.#conv;
  }

  /**
   * A new occupant's conversation: seeded from its transcript when it is resumed ("a resumed seat seeds its conversation from its transcript"), read before the CLI writes to
   * it. Recorded in the book when its transcript can be named.
   */
  async begin(
    rec: Omit<SessionRecord, "slot" | "transcript"> & {
      transcript: string | null;
      resumed: boolean;
    },
  ): Promise<void> {
    this.#conv = this.#open(rec.session_id, rec.transcript, rec.resumed);
    if (rec.transcript) {
      this.env.sessions.set({
        slot: this.slot,
        session_id: rec.session_id,
        cwd: rec.cwd,
        transcript: rec.transcript,
      });
    }
    await this.#conv.ready();
  }

  /** The session a previous run of the server left on this seat (the book): pageable, seeded
   * on the first read. A conversation this run began is kept. */
  remember(rec: SessionRecord): void {
    if (this.#conv) return;
    this.#conv = this.#open(rec.session_id, rec.transcript, true);
  }

  /** Records one numbered update in the current conversation's window. */
  push(seq: number, update: SessionUpdate): void {
    this.#conv?.window.push(seq, update);
  }

  /** The snapshot's `conversation` (empty for a seat that never held one). */
  async snapshot(): Promise<Wire> {
    if (!this.#conv) return noConversation();
    return await this.#conv.snapshot();
  }

  /** `more`: refused naming the seat when it has no conversation to page. */
  async more(before: string | null, turns: number): Promise<PageBody> {
    if (!this.#conv) {
      throw new Refusal(
        "more",
        `more: ${slotName(this.slot)}: the seat has no session and knows no earlier one to page`,
        this.slot,
      );
    }
    return await this.#conv.more(before, turns);
  }

  /** `seat_range` for numbers the seat checked (see Seat.range). */
  async range(from: number, to: number): Promise<RangeFrame[]> {
    return this.#conv ? await this.#conv.range(from, to) : [];
  }

  #open(session: string, transcript: string | null, seed: boolean): SeatConversation {
    if (transcript) {
      this.#known.delete(session);
      this.#known.set(session, transcript);
      if (this.#known.size > KNOWN_SESSIONS) this.#known.delete(this.#known.keys().next().value!);
    }
    return new SeatConversation({
      slot: this.slot,
      session,
      transcript,
      seed,
      caps: () => {
        const server = this.env.config().server;
        return {
          pageBytes: server.first_frame_cap_kb * 1024,
          recordBytes: server.tool_record_cap_kb * 1024,
        };
      },
      transcriptOf: (id) => this.#known.get(id) ?? null,
      cronName: (uuid) => this.env.workspace.firedPromptName(uuid),
      log: this.env.log,
    });
  }
}
