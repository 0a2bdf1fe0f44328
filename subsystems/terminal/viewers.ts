/**
 * The viewers of one terminal: who is attached, who holds the person's control, who is paused,
 * and who fell behind (spec: terminal_view, terminal_control, terminal_pause, binary kind 4).
 *
 * Every viewer is written the same kind-4 frames (each built once, around its chunk). A viewer is
 * never sent a backlog: a resume, or a viewer whose sink's buffer went over the bound, gets a
 * fresh terminal_view instead, and the byte stream continues from that screen's sequence.
 */
import type { Logger } from "../../server/log.ts";
import { type OutputChunk, seqAfter, type ShellTerminal } from "./terminal.ts";

/** Where a viewer's frames go; the socket layer implements it per connection. */
export interface ViewerSink {
  sendJson(msg: unknown): void;
  sendBinary(bytes: Uint8Array): void;
  /** Bytes queued toward the peer and not yet written (a WebSocket's bufferedAmount). */
  buffered(): number;
}

/** A seat as the frames carry it (the wire's Slot shape). */
export interface SeatRef {
  org: string;
  project: string;
  label: string;
}

/** An answer to a viewer's request: done, or refused with a sentence. */
export type Outcome = { ok: true } | { ok: false; why: string };

/** The terminal_view frame (spec: Server messages > terminal_view). */
export interface TerminalViewFrame {
  kind: "terminal_view";
  seat: SeatRef;
  id: number;
  cols: number;
  rows: number;
  seq: number;
  screen: string;
  viewers: number;
  viewer: number;
  controller: number | null;
}

/** The terminal_control frame (spec: Server messages > terminal_control). */
export interface TerminalControlFrame {
  kind: "terminal_control";
  seat: SeatRef;
  id: number;
  controller: number | null;
}

/** Bounds for the viewer set. */
export interface ViewerSetOptions {
  /** The seat the frames name. */
  seat: SeatRef;
  /** A sink buffering more than this many bytes is behind. Default 1 MiB. */
  highWater?: number;
  /** How often a behind viewer's buffer is looked at again. Default 50 ms. */
  recheckMs?: number;
  /** Unparsed bytes a screen may be followed by; past it the screen waits. Default 256 KiB. */
  tailMax?: number;
  /** Where a failure's cause goes (the PTY's own words); a refusal says what failed in forge's. */
  log?: Logger;
}

interface Viewer {
  sink: ViewerSink;
  paused: boolean;
  behind: boolean;
  /** Waiting for the model to catch up before its screen is sent; written nothing meanwhile. */
  waiting: boolean;
  /** The last sequence this viewer has been sent, by frame or by screen. */
  lastSent: number;
}

/** One terminal's viewers. */
export class ViewerSet {
  readonly seat: SeatRef;
  #terminal: ShellTerminal;
  #viewers = new Map<number, Viewer>();
  #nextId = 1;
  #controller: number | null = null;
  #highWater: number;
  #recheckMs: number;
  #tailMax: number;
  #log: Logger | undefined;
  #recheck: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: () => void;

  constructor(terminal: ShellTerminal, options: ViewerSetOptions) {
    this.#terminal = terminal;
    this.seat = options.seat;
    this.#highWater = options.highWater ?? 1024 * 1024;
    this.#recheckMs = options.recheckMs ?? 50;
    this.#tailMax = options.tailMax ?? 256 * 1024;
    this.#log = options.log;
    this.#unsubscribe = terminal.onOutput((chunk) => this.#fanOut(chunk));
  }

  /** The viewer holding the person's control; null when the agent has it. */
  get controller(): number | null {
    return this.#controller;
  }
  /** How many viewers are attached. */
  get count(): number {
    return this.#viewers.size;
  }
  /** Whether `viewer` is attached. */
  has(viewer: number): boolean {
    return this.#viewers.has(viewer);
  }

  /** Attaches a sink and sends it the current screen; returns its viewer id. */
  attach(sink: ViewerSink): number {
    const id = this.#nextId++;
    const viewer = { sink, paused: false, behind: false, waiting: false, lastSent: 0 };
    this.#viewers.set(id, viewer);
    this.#sendScreen(id, viewer);
    return id;
  }

  /** Detaches a viewer; a controller's control is released and every viewer hears it. */
  detach(viewer: number): boolean {
    if (!this.#viewers.delete(viewer)) return false;
    if (this.#controller === viewer) this.#setController(null);
    return true;
  }

  /**
   * Takes (`take`) or releases the person's control. A take always lands and every viewer,
   * the previous holder included, hears terminal_control; a release by a non-holder is refused.
   */
  control(viewer: number, take: boolean): Outcome {
    const refused = this.#unknown(viewer);
    if (refused) return refused;
    if (take) {
      if (this.#controller !== viewer) this.#setController(viewer);
      return { ok: true };
    }
    if (this.#controller !== viewer) {
      const holder = this.#controller === null
        ? "no viewer holds it"
        : `viewer ${this.#controller} does`;
      return {
        ok: false,
        why: `${this.#name()}: viewer ${viewer} cannot release control, ${holder}`,
      };
    }
    this.#setController(null);
    return { ok: true };
  }

  /** Pauses or resumes writes to a viewer; a resume sends a fresh terminal_view. */
  pause(viewer: number, paused: boolean): Outcome {
    const refused = this.#unknown(viewer);
    if (refused) return refused;
    const v = this.#viewers.get(viewer)!;
    if (v.paused === paused) return { ok: true };
    v.paused = paused;
    if (!paused) {
      v.behind = false;
      this.#sendScreen(viewer, v);
    }
    return { ok: true };
  }

  /** Types into the shell, only for the viewer holding control (spec: binary kind 5). */
  input(viewer: number, bytes: Uint8Array | string): Outcome {
    const refused = this.#unknown(viewer);
    if (refused) return refused;
    if (this.#controller !== viewer) {
      const holder = this.#controller === null
        ? "the agent holds it"
        : `viewer ${this.#controller} holds it`;
      return {
        ok: false,
        why: `${this.#name()}: viewer ${viewer} does not hold control, ${holder}`,
      };
    }
    if (!this.#terminal.alive) return { ok: false, why: `${this.#name()}: the shell has exited` };
    this.#terminal.write(bytes);
    return { ok: true };
  }

  /** Resizes the terminal for an attached viewer's surface (spec: terminal_resize). */
  resize(viewer: number, cols: number, rows: number): Outcome {
    const refused = this.#unknown(viewer);
    if (refused) return refused;
    try {
      this.#terminal.resize(cols, rows);
    } catch (e) {
      // node-pty's words (an ioctl's errno) go to the log; the person reads which resize failed.
      this.#log?.warn("terminal_resize_failed", {
        seat: this.seat,
        terminal: this.#terminal.id,
        viewer,
        cols,
        rows,
        error: e,
      });
      const why = !this.#terminal.alive
        ? "; the shell has exited"
        : this.#log
        ? "; the log has the cause"
        : "";
      return { ok: false, why: `${this.#name()}: the resize to ${cols}x${rows} failed${why}` };
    }
    return { ok: true };
  }

  /** Forgets every viewer and stops hearing the terminal; sends nothing. */
  dispose(): void {
    this.#unsubscribe();
    this.#viewers.clear();
    this.#controller = null;
    this.#stopRecheck();
  }

  #fanOut(chunk: OutputChunk): void {
    for (const [id, v] of this.#viewers) {
      if (v.paused || v.waiting) continue;
      if (v.behind && !this.#caughtUp(id, v)) continue;
      if (v.waiting) continue; // its fresh screen waits for the model, and will carry this
      if (!seqAfter(chunk.seq, v.lastSent)) continue; // a fresh screen already carried it
      if (v.sink.buffered() > this.#highWater) {
        // spec: a gap means the viewer fell behind; it gets a fresh screen, not the bytes.
        v.behind = true;
        this.#startRecheck();
        continue;
      }
      v.sink.sendBinary(chunk.frame);
      v.lastSent = chunk.seq;
    }
  }

  /** A behind viewer whose buffer drained below half the bound is sent a fresh screen. */
  #caughtUp(id: number, v: Viewer): boolean {
    if (v.sink.buffered() > this.#highWater / 2) return false;
    v.behind = false;
    this.#sendScreen(id, v);
    return true;
  }

  /**
   * Sends a viewer the model's screen and then the chunks the model has not parsed, so the
   * stream continues with neither gap nor replay. The model trails a flood (model.ts): when the
   * tail would be over `tailMax` bytes, or a resize waits behind it, the viewer is written
   * nothing until the model has caught up, and then gets a current screen instead of a replay.
   */
  #sendScreen(id: number, v: Viewer, waited = false): void {
    const t = this.#terminal;
    if (!t.screenExact || (!waited && t.unparsedBytes > this.#tailMax)) {
      v.waiting = true;
      t.settled().then(() => {
        if (this.#viewers.get(id) !== v || !v.waiting) return;
        v.waiting = false;
        if (!v.paused) this.#sendScreen(id, v, true);
      });
      return;
    }
    const shot = t.screen();
    const frame: TerminalViewFrame = {
      kind: "terminal_view",
      seat: this.seat,
      id: t.id,
      cols: shot.cols,
      rows: shot.rows,
      seq: shot.seq,
      screen: shot.screen,
      viewers: this.#viewers.size,
      viewer: id,
      controller: this.#controller,
    };
    v.sink.sendJson(frame);
    v.lastSent = shot.seq;
    // Chunks already out to others that the model has not parsed continue the stream exactly.
    for (const chunk of t.unparsedAfter(shot.seq)) {
      v.sink.sendBinary(chunk.frame);
      v.lastSent = chunk.seq;
    }
  }

  #setController(controller: number | null): void {
    this.#controller = controller;
    const frame: TerminalControlFrame = {
      kind: "terminal_control",
      seat: this.seat,
      id: this.#terminal.id,
      controller,
    };
    for (const v of this.#viewers.values()) v.sink.sendJson(frame);
  }

  #startRecheck(): void {
    this.#recheck ??= setInterval(() => {
      let anyBehind = false;
      for (const [id, v] of this.#viewers) {
        if (v.behind && !v.paused && !this.#caughtUp(id, v)) anyBehind = true;
      }
      if (!anyBehind) this.#stopRecheck();
    }, this.#recheckMs);
  }

  #stopRecheck(): void {
    clearInterval(this.#recheck);
    this.#recheck = undefined;
  }

  #unknown(viewer: number): Outcome | null {
    if (this.#viewers.has(viewer)) return null;
    return { ok: false, why: `${this.#name()}: viewer ${viewer} is not attached` };
  }

  #name(): string {
    const { org, project, label } = this.seat;
    return `terminal ${this.#terminal.id} of ${org}/${project}/${label}`;
  }
}
