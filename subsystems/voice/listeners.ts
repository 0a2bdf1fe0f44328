import { type Slot, slotName } from "../../protocol/mod.ts";

/** Which note a switch move puts into the session: the first in, the last out, or none. */
export type VoiceNote = "listening" | "stopped" | null;

export interface SwitchMove {
  slot: Slot;
  listeners: number;
  note: VoiceNote;
}

interface Room {
  slot: Slot;
  /** Connections with voice on for the seat now. */
  on: Set<number>;
  /** Connections that moved to another seat with voice on: their intent is kept, not counted. */
  away: Set<number>;
  /** Whether the agent holds the "listening" note with no "stopped" after it. */
  told: boolean;
}

/**
 * The listener set of every seat (spec: voice_mode). The switch is a connection's own: the set
 * counts connections. The first one in tells the agent once; the last one out - by an explicit
 * off or by its connection going away - tells it it may stop; a move to another seat
 * (`explicit: false`) pauses without a note, and a return resumes without one.
 */
export class ListenerSet {
  readonly #rooms = new Map<string, Room>();

  /** The count for a seat (`state.voice_listeners`, `voice_mode_state.listeners`). */
  count(slot: Slot): number {
    return this.#rooms.get(slotName(slot))?.on.size ?? 0;
  }

  /** Whether this connection has voice on for the seat. */
  has(slot: Slot, conn: number): boolean {
    return this.#rooms.get(slotName(slot))?.on.has(conn) ?? false;
  }

  /** Applies one `voice_mode`. */
  set(slot: Slot, conn: number, on: boolean, explicit: boolean): SwitchMove {
    const room = this.#room(slot);
    if (on) {
      room.away.delete(conn);
      room.on.add(conn);
      const note = room.told ? null : "listening";
      room.told = true;
      return { slot, listeners: room.on.size, note };
    }
    const was = room.on.delete(conn);
    if (explicit) room.away.delete(conn);
    else if (was) room.away.add(conn);
    return { slot, listeners: room.on.size, note: this.#lastOut(room) };
  }

  /** A connection went away: it leaves every seat as an explicit off would. */
  drop(conn: number): SwitchMove[] {
    const moves: SwitchMove[] = [];
    for (const room of this.#rooms.values()) {
      const counted = room.on.delete(conn);
      const kept = room.away.delete(conn);
      if (!counted && !kept) continue;
      moves.push({ slot: room.slot, listeners: room.on.size, note: this.#lastOut(room) });
    }
    return moves;
  }

  #lastOut(room: Room): VoiceNote {
    if (!room.told || room.on.size > 0 || room.away.size > 0) return null;
    room.told = false;
    return "stopped";
  }

  #room(slot: Slot): Room {
    const name = slotName(slot);
    let room = this.#rooms.get(name);
    if (!room) {
      room = { slot, on: new Set(), away: new Set(), told: false };
      this.#rooms.set(name, room);
    }
    return room;
  }
}

/** The `[Voice]` envelopes the notes ride (spec: voice_mode; delivered with source `forge`). */
export const VOICE_NOTES: Record<Exclude<VoiceNote, null>, string> = {
  listening: "[Voice] The person is listening to this session now. From here on, send the " +
    "substance of each update through mcp__forge__voice__say, worded as you would say it in a " +
    "live conversation: short plain sentences, no markdown, no code, paths or symbols read " +
    "out. Keep writing your normal replies as well.",
  stopped: "[Voice] The person stopped listening. You may stop sending updates through " +
    "mcp__forge__voice__say.",
};
