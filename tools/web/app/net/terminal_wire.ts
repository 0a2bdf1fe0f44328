import type { ServerMessage, Slot } from "../../../../protocol/mod.ts";
import {
  BinaryKind,
  decodeTerminalOutput,
  encodeTerminalInput,
  sameSlot,
  TerminalViewReply,
} from "../../../../protocol/mod.ts";
import type { ForgeClient } from "./client.ts";
import { narrow } from "./narrow.ts";
import type { KnownUpdate } from "./updates.ts";

/** Where the terminal's bytes are drawn: the xterm.js view registers one. */
export interface TerminalSink {
  /** A fresh screen (an attach, a resume, a gap): clear and draw `screen`. */
  repaint(screen: string, cols: number, rows: number): void;
  write(bytes: Uint8Array): void;
}

/**
 * The seat's terminal over the socket: `terminal_view` attaches and answers a repaint, kind-4
 * frames carry the shell's bytes, kind-5 frames carry this page's keys while it holds control.
 * spec: terminal_view, terminal_control, terminal_pause, Binary messages > 4 and 5.
 */
export class TerminalWire {
  #sink: TerminalSink | null = null;
  #want: Slot | null = null;
  #paused = false;

  constructor(private readonly client: ForgeClient) {}

  /** Attaches the seat's terminal (creating it on first use) and draws into `sink`. */
  attach(seat: Slot, sink: TerminalSink): void {
    this.#sink = sink;
    this.#want = seat;
    this.#paused = false;
    this.client.state.terminalClosed = false;
    this.client.send({ kind: "terminal_view", seat, reply_to: 1 });
  }

  /**
   * The person's close door: the shell's process group is killed. The page draws it gone when
   * the seat says so (`terminal_changed` to null), so a refused close leaves the shell drawn and
   * its words in the notices. spec: terminal_close.
   */
  close(): void {
    const t = this.client.state.terminal;
    if (t) this.client.send({ kind: "terminal_close", seat: t.seat, id: t.id });
  }

  /** After a close, the seat's next open starts a fresh shell (spec: terminal_close). */
  reopen(): void {
    if (this.#want && this.#sink) this.attach(this.#want, this.#sink);
  }

  /**
   * The seat's terminal changed: a resize (anyone's) is the size the next resize is measured
   * against; gone (this page's close, or anyone's), the attach ended with it.
   */
  update(u: Extract<KnownUpdate, { name: "terminal_changed" }>): void {
    const t = this.client.state.terminal;
    const now = u.fields.terminal;
    if (!t || !sameSlot(u.fields.key, t.seat)) return;
    if (now !== null) {
      if (now.id === t.id) Object.assign(t, { cols: now.cols, rows: now.rows });
      return;
    }
    this.client.state.terminal = null;
    this.client.state.terminalClosed = true;
  }

  /** Lowering the surface detaches, so the viewer count and idle clock see the truth. */
  detach(): void {
    if (!this.#want) return;
    this.#want = null;
    this.#sink = null;
    this.client.state.terminal = null;
    this.client.state.terminalClosed = false;
    this.client.send({ kind: "terminal_detach" });
  }

  /** The socket went down: the attach died with it; the view re-attaches when it comes back. */
  lost(): void {
    this.client.state.terminal = null;
  }

  /** A hidden tab stops being written to; a resume is answered with a fresh screen. */
  pause(paused: boolean): void {
    if (!this.#want || paused === this.#paused) return;
    this.#paused = paused;
    this.client.send({ kind: "terminal_pause", paused });
  }

  control(take: boolean): void {
    const t = this.client.state.terminal;
    if (t) {
      this.client.send({
        kind: "terminal_control",
        seat: t.seat,
        id: t.id,
        take,
      });
    }
  }

  resize(cols: number, rows: number): void {
    const t = this.client.state.terminal;
    if (!t || (t.cols === cols && t.rows === rows)) return;
    this.client.send({
      kind: "terminal_resize",
      seat: t.seat,
      id: t.id,
      cols,
      rows,
    });
  }

  /** Keys typed into the view: sent only while this page holds the control. */
  input(text: string): void {
    const t = this.client.state.terminal;
    if (!t || t.controller !== t.viewer) return;
    this.client.link.sendBinary(
      encodeTerminalInput(t.id, new TextEncoder().encode(text)),
    );
  }

  get attachedTo(): Slot | null {
    return this.#want;
  }

  message(m: ServerMessage): void {
    const state = this.client.state;
    if (m.kind === "terminal_view") {
      if (!this.#want || !sameSlot(m.seat, this.#want)) return;
      state.terminal = {
        seat: m.seat,
        id: m.id,
        viewer: m.viewer,
        controller: m.controller,
        cols: m.cols,
        rows: m.rows,
        seq: m.seq,
      };
      this.#sink?.repaint(m.screen, m.cols, m.rows);
    } else if (m.kind === "terminal_control") {
      if (state.terminal && state.terminal.id === m.id) {
        state.terminal.controller = m.controller;
      }
    } else if (m.kind === "reply" && m.reply_to === 1) {
      // spec: terminal_view - a refused attach answers {"ok": false, "why": ...}.
      const body = narrow(TerminalViewReply, "terminal_view's reply", m.body);
      const why = !body.ok ? body.why : body.data.ok ? null : body.data.why;
      if (why !== null) {
        state.errors = [...state.errors, {
          kind: "error",
          what: "terminal_view",
          why,
          seat: this.#want,
          dispatch_id: null,
          at: Date.now(),
        }];
      }
    }
  }

  output(bytes: Uint8Array): void {
    if (bytes[0] !== BinaryKind.terminal_output) return;
    const decoded = decodeTerminalOutput(bytes);
    const t = this.client.state.terminal;
    if (!decoded.ok || !t || decoded.frame.id !== t.id) return;
    // A chunk at or below the repaint's sequence is already on screen (spec: terminal_view).
    if (decoded.frame.seq <= t.seq) return;
    t.seq = decoded.frame.seq;
    this.#sink?.write(decoded.frame.bytes);
  }
}
