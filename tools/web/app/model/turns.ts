import type { CliFrame } from "../../../../protocol/mod.ts";
import { isPrompt } from "./fold.ts";

/** One turn as a page holds it; `id` is this page's own, because a turn's `key` may be null. */
export interface Turn {
  id: number;
  messages: CliFrame[];
}

let turnIds = 0;
/** A turn with a fresh page-local id. */
export const turn = (messages: CliFrame[]): Turn => ({ id: ++turnIds, messages });

/** The frames of a snapshot's or a page's turn (`{key, messages}`); anything else holds none. */
export function turnOf(raw: unknown): Turn {
  const messages = isFrame(raw) && Array.isArray(raw.messages) ? raw.messages.filter(isFrame) : [];
  return turn(messages);
}

function isFrame(v: unknown): v is CliFrame {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The live conversation's turn boundaries: a prompt opens a turn, except one sent while a turn
 * runs, which waits in the CLI's queue and opens its turn where the CLI starts it
 * (command_lifecycle `started` naming it). spec: "where a turn BEGINS is a fact about the
 * session". Pure apart from the turns it is handed.
 */
export class TurnBook {
  turns: Turn[] = [];
  inFlight = false;
  /** Forged prompts the CLI has not started yet, by uuid (drawn in the composer's queue). */
  #queued = new Map<string, CliFrame>();

  reset(turns: Turn[], inFlight: boolean): void {
    this.turns = turns;
    this.inFlight = inFlight;
    this.#queued.clear();
  }

  /** One chat frame from the stream. */
  add(frame: CliFrame): void {
    if (frame.type === "result") this.inFlight = false;
    if (isPrompt(frame)) {
      if (this.inFlight && typeof frame.uuid === "string") {
        this.#queued.set(frame.uuid, frame);
        return;
      }
      return this.#open([frame]);
    }
    const waiting = frame.type === "command_lifecycle" && frame.state === "started"
      ? this.#queued.get(String(frame.command_uuid))
      : undefined;
    if (waiting) {
      this.#queued.delete(String(frame.command_uuid));
      return this.#open([waiting, frame]);
    }
    if (this.turns.length === 0) return this.#open([frame]);
    const last = this.turns.at(-1)!;
    this.turns = [...this.turns.slice(0, -1), { id: last.id, messages: [...last.messages, frame] }];
  }

  #open(frames: CliFrame[]): void {
    this.turns = [...this.turns, turn(frames)];
    this.inFlight = true;
  }
}
