import type { ServerMessage, Slot } from "../../../../protocol/mod.ts";
import type { TerminalAttach } from "./store.ts";
import { TerminalHeld } from "./terminal_held.ts";
import {
  BinaryKind,
  decodeTerminalOutput,
  encodeTerminalInput,
  sameSlot,
  TerminalViewReply,
} from "../../../../protocol/mod.ts";
import type { ClientCore } from "./client_core.ts";
import { narrow } from "./narrow.ts";
import type { KnownUpdate } from "./updates.ts";

/** Where the terminal's bytes are drawn: the xterm.js view registers one. */
export interface TerminalSink {
  /** A fresh screen (an attach, a resume, a gap): clear and draw `screen`. */
  repaint(screen: string, cols: number, rows: number): void;
  write(bytes: Uint8Array): void;
  /** The size the page laid the terminal out at again (a re-attach after a drop). */
  resize(cols: number, rows: number): void;
}

/**
 * The seat's terminal over the socket: `terminal_view` attaches and answers a repaint, kind-4
 * frames carry the shell's bytes, kind-5 frames carry this page's keys while it holds control.
 * A viewer and its roles die with the socket (spec: terminal_control: "dropping the connection
 * releases it"), so the attach that follows a drop lays the terminal out at the size it had,
 * takes the control back when nobody took it meanwhile (a take always lands: it would take it
 * from them), and pauses again a page that is hidden. spec: terminal_view, terminal_control,
 * terminal_pause, Binary messages > 4 and 5.
 */
export class TerminalWire {
  #sink: TerminalSink | null = null;
  #want: Slot | null = null;
  /** Whether the page is hidden: a pause the attach in force is sent, and each next one. */
  #paused = false;
  /** Whether the attach in force has drawn its first screen (its viewer exists on forge). */
  #landed = false;
  /** What a drop left owed to the next attach. */
  #held = new TerminalHeld();

  constructor(private readonly client: ClientCore) {}

  /** Attaches the seat's terminal (creating it on first use) and draws into `sink`. */
  attach(seat: Slot, sink: TerminalSink): void {
    this.#sink = sink;
    this.#want = seat;
    this.#landed = false;
    this.#held.attached(seat);
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
    this.#held.closed(t);
    this.client.state.terminal = null;
    this.client.state.terminalClosed = true;
  }

  /** Lowering the surface detaches, so the viewer count and idle clock see the truth. */
  detach(): void {
    // The person lowered the surface: nothing is given back (a drop's lowering keeps it).
    if (this.client.state.link === "open") this.#held.lowered();
    if (!this.#want) return;
    this.#want = null;
    this.#sink = null;
    this.client.state.terminal = null;
    this.client.state.terminalClosed = false;
    this.client.send({ kind: "terminal_detach" });
  }

  /**
   * The socket went down: the attach died with it; the view re-attaches when it comes back, and
   * that attach gives back the size and the control this one had.
   */
  lost(): void {
    this.#held.lost(this.client.state.terminal);
    this.#landed = false;
    this.client.state.terminal = null;
  }

  /** A hidden tab stops being written to; a resume is answered with a fresh screen. */
  pause(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    if (this.#landed) this.client.send({ kind: "terminal_pause", paused });
  }

  control(take: boolean): void {
    this.#held.acted();
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
    this.#held.acted();
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
      const t = {
        seat: m.seat,
        id: m.id,
        viewer: m.viewer,
        controller: m.controller,
        cols: m.cols,
        rows: m.rows,
        seq: m.seq,
      };
      state.terminal = t;
      this.#sink?.repaint(m.screen, m.cols, m.rows);
      if (!this.#landed) this.#landedOn(t);
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

  /**
   * The attach's first screen: a hidden page pauses it (before any take, so a page the test or
   * the person sees holding control is already paused), then what the socket before it held.
   */
  #landedOn(t: TerminalAttach): void {
    this.#landed = true;
    if (this.#paused) this.client.send({ kind: "terminal_pause", paused: true });
    const back = this.#held.landed(t);
    if (!back) return;
    if (back.cols !== t.cols || back.rows !== t.rows) {
      this.#sink?.resize(back.cols, back.rows);
      const { cols, rows } = back;
      this.client.send({ kind: "terminal_resize", seat: t.seat, id: t.id, cols, rows });
    }
    if (!back.control) return;
    if (t.controller === null) {
      this.client.send({ kind: "terminal_control", seat: t.seat, id: t.id, take: true });
    } else {
      this.client.note({
        kind: "error",
        what: "terminal_control",
        why:
          `You had this terminal's control before the connection dropped; viewer ${t.controller} took it meanwhile`,
        seat: t.seat,
        dispatch_id: null,
      });
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
