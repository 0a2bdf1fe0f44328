import type {
  KeyedUpdateName,
  SeatFields,
  SeatUpdate,
  SessionUpdate,
  Slot,
} from "../../../protocol/mod.ts";
import { keyedUpdate, seatUpdate } from "../../../protocol/mod.ts";
import type { NumberedUpdate } from "../stream.ts";

/** Where a seat's updates go: the workspace's stream, and the seat's own window of frames. */
export interface EmitSinks {
  emit(update: SessionUpdate): NumberedUpdate;
  push(seq: number, update: SessionUpdate): void;
}

/**
 * A seat's emit path: each update built typed (protocol/update.ts) with the seat's key, numbered
 * on the seat's counter by the stream and kept in the seat's window, so `seat_range` can answer
 * every number. Updates another part of the server numbered on the seat are kept as they pass.
 */
export class SeatEmitter {
  #emitting = false;

  constructor(private readonly slot: Slot, private readonly sinks: EmitSinks) {}

  /** Emits one keyed update of this seat. */
  emit<N extends KeyedUpdateName>(name: N, fields: SeatFields<N>): void {
    this.#publish(seatUpdate(this.slot, name, fields));
  }

  /** Emits the updates a CLI frame implied (the seat's state derives them). */
  derived(updates: SeatUpdate[]): void {
    for (const u of updates) this.#publish(keyedUpdate(this.slot, u));
  }

  /** An update another part of the server numbered on this seat's counter (a subsystem's). */
  hear(n: NumberedUpdate): void {
    if (this.#emitting || n.seq === null || n.only !== null) return;
    if (n.update.name === "chat_appended") return; // only the seat emits these
    this.sinks.push(n.seq, n.update);
  }

  #publish(made: SessionUpdate): void {
    this.#emitting = true;
    let numbered: NumberedUpdate;
    try {
      numbered = this.sinks.emit(made);
    } finally {
      this.#emitting = false;
    }
    if (numbered.seq !== null) this.sinks.push(numbered.seq, made);
  }
}
