import { isEngineError } from "../../server/subsystem.ts";
/**
 * Every seat's terminal, keyed by the seat's name `org/project/label`: open-or-create, the id
 * check, close, the hand-off flag, and the summary terminal_changed carries (spec: terminal_view,
 * terminal_close, Server messages > terminal_changed, the session table's `terminal` row).
 */
import type { TerminalSummary } from "../../protocol/mod.ts";
import { ShellTerminal, type ShellTerminalOptions } from "./terminal.ts";
import { type Outcome, type SeatRef, ViewerSet, type ViewerSetOptions } from "./viewers.ts";

/** The `terminal` summary (spec: terminal_changed; the session table's `terminal` row):
 * protocol/'s, so the summary the manager builds is the one the wire declares. */
export type { TerminalSummary };

/** A seat's open terminal and its viewers. */
export interface SeatTerminal {
  seat: SeatRef;
  terminal: ShellTerminal;
  viewers: ViewerSet;
}

/** What the manager needs. */
export interface TerminalManagerOptions {
  /** Hears every real change of a seat's summary; `summary` is null once the terminal is gone. */
  onChange?: (seat: string, summary: TerminalSummary | null) => void;
  /** Defaults for every new terminal (shell, env, size, bounds). */
  terminal?: Omit<ShellTerminalOptions, "id" | "cwd">;
  /** Bounds for every viewer set. */
  viewers?: Omit<ViewerSetOptions, "seat">;
}

/** An open's answer: the seat's terminal, or a refusal in a sentence. */
export type OpenResult = ({ ok: true; id: number } & SeatTerminal) | { ok: false; why: string };

interface Entry extends SeatTerminal {
  held: boolean;
  /** The last summary told to onChange, as JSON, so only real changes are told. */
  told: string;
  unsubscribe: () => void;
}

/** Parses a seat name; null when it is not three non-empty parts. */
export function parseSeat(seat: string): SeatRef | null {
  const parts = seat.split("/");
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null;
  return { org: parts[0], project: parts[1], label: parts[2] };
}

/** The seats' terminals. */
export class TerminalManager {
  #options: TerminalManagerOptions;
  #bySeat = new Map<string, Entry>();
  #lastId = 0;

  constructor(options: TerminalManagerOptions = {}) {
    this.#options = options;
  }

  /**
   * With no `id`: the seat's terminal, started in `cwd` on first use; one whose shell has exited
   * is closed and replaced by a fresh shell. With an `id`: the seat's terminal only if it has
   * that id, else refused with a sentence (spec: terminal_view). Never throws for a refusal.
   */
  async open(seat: string, cwd: string, id?: number): Promise<OpenResult> {
    const ref = parseSeat(seat);
    if (!ref) {
      return { ok: false, why: `terminal: ${JSON.stringify(seat)} is not org/project/label` };
    }
    const existing = this.#bySeat.get(seat);
    if (id !== undefined) {
      if (existing?.terminal.id === id) return { ok: true, id, ...pick(existing) };
      const has = existing ? `its terminal is ${existing.terminal.id}` : "it has none open";
      return { ok: false, why: `terminal ${id} is not seat ${seat}'s terminal: ${has}` };
    }
    if (existing && !existing.terminal.alive) {
      try {
        await this.close(seat);
      } catch (e) {
        return {
          ok: false,
          why: `terminal for ${seat}: the exited shell could not be closed: ${e}`,
        };
      }
    }
    // Re-read: another open may have started the seat's shell while this one awaited.
    const current = this.#bySeat.get(seat);
    if (current) return { ok: true, id: current.terminal.id, ...pick(current) };
    let terminal: ShellTerminal;
    try {
      terminal = new ShellTerminal({ ...this.#options.terminal, id: this.#nextId(), cwd });
    } catch (e) {
      // The PTY's own message stays out: the shell could not be started is the reason.
      const why = isEngineError(e) ? "the shell could not be started" : (e as Error).message;
      return { ok: false, why: `terminal for ${seat}: ${why}` };
    }
    const viewers = new ViewerSet(terminal, { ...this.#options.viewers, seat: ref });
    const entry: Entry = {
      seat: ref,
      terminal,
      viewers,
      held: false,
      told: "",
      unsubscribe: terminal.onChange(() => this.#tell(seat)),
    };
    this.#bySeat.set(seat, entry);
    this.#tell(seat);
    return { ok: true, id: terminal.id, ...pick(entry) };
  }

  /** The seat's terminal, if one is open. */
  get(seat: string): SeatTerminal | undefined {
    const entry = this.#bySeat.get(seat);
    return entry && pick(entry);
  }

  /** The seat whose terminal has wire id `id` (for routing kind-5 frames), if any. */
  seatOf(id: number): string | undefined {
    for (const [seat, entry] of this.#bySeat) if (entry.terminal.id === id) return seat;
    return undefined;
  }

  /** The seat's summary, or null when it has no terminal. */
  summary(seat: string): TerminalSummary | null {
    const entry = this.#bySeat.get(seat);
    if (!entry) return null;
    const t = entry.terminal;
    return {
      id: t.id,
      shell: t.shell,
      cwd: t.cwd,
      cols: t.cols,
      rows: t.rows,
      alive: t.alive,
      state: t.state,
      title: t.title,
      held: entry.held,
    };
  }

  /** Marks whether a hand-off holds the seat's terminal; false when it has none. */
  setHeld(seat: string, held: boolean): boolean {
    const entry = this.#bySeat.get(seat);
    if (!entry) return false;
    entry.held = held;
    this.#tell(seat);
    return true;
  }

  /**
   * Closes the seat's terminal (its whole session of processes; spec: terminal_close) and tells
   * onChange null; the seat's next open starts a fresh shell. With an `id`, refuses one that is
   * not the seat's. Rejects only when processes survive the kill.
   */
  async close(seat: string, id?: number): Promise<Outcome> {
    const entry = this.#bySeat.get(seat);
    if (!entry) return { ok: false, why: `terminal: seat ${seat} has no terminal open` };
    if (id !== undefined && entry.terminal.id !== id) {
      return {
        ok: false,
        why: `terminal ${id} is not seat ${seat}'s terminal: its terminal is ${entry.terminal.id}`,
      };
    }
    this.#bySeat.delete(seat);
    entry.unsubscribe();
    entry.viewers.dispose();
    try {
      await entry.terminal.close();
    } finally {
      this.#options.onChange?.(seat, null);
    }
    return { ok: true };
  }

  /** Closes every terminal (shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#bySeat.keys()].map((seat) => this.close(seat)));
  }

  #tell(seat: string): void {
    const summary = this.summary(seat);
    const entry = this.#bySeat.get(seat);
    if (!entry || !summary) return;
    const json = JSON.stringify(summary);
    if (json === entry.told) return;
    entry.told = json;
    this.#options.onChange?.(seat, summary);
  }

  /** The next free u16 id, never 0, not reusing a live one; ids advance so stale frames miss. */
  #nextId(): number {
    const live = new Set([...this.#bySeat.values()].map((e) => e.terminal.id));
    for (let i = 0; i < 0xffff; i++) {
      this.#lastId = this.#lastId >= 0xffff ? 1 : this.#lastId + 1;
      if (!live.has(this.#lastId)) return this.#lastId;
    }
    throw new Error("terminal: all 65535 terminal ids are in use");
  }
}

function pick(entry: Entry): SeatTerminal {
  return { seat: entry.seat, terminal: entry.terminal, viewers: entry.viewers };
}
