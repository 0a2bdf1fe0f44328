/**
 * Helpers for the terminal's tests: a temp home, a condition poll with a deadline, and the
 * visible text a VT stream draws in a fresh headless xterm.
 */
import xt from "@xterm/headless";
import { decodeTerminalOutput, type TerminalOutputFrame } from "../protocol/terminal_frames.ts";
import type { ViewerSink } from "../subsystems/terminal/viewers.ts";

const { Terminal: Xterm } = xt;

/** Polls `check` every 10 ms until it yields a value other than undefined/false; rejects after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const got = await check();
    if (got !== undefined && got !== false) return got;
    if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A temp dir used as the shell's cwd and HOME (so no personal rc file slows or shapes it). */
export async function withTempHome(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "forge-terminal-test-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The environment a test shell gets: a temp HOME and a prompt easy to wait for. */
export function testEnv(home: string): Record<string, string> {
  return { HOME: home, PS1: "$ ", HISTFILE: "/dev/null" };
}

/** The rows a VT stream draws on a fresh `cols`x`rows` xterm, right-trimmed, plus the cursor. */
export async function visibleText(
  stream: string | Uint8Array | (string | Uint8Array)[],
  cols: number,
  rows: number,
): Promise<{ lines: string[]; cursor: [number, number]; buffer: string }> {
  const term = new Xterm({ cols, rows, allowProposedApi: true });
  try {
    for (const piece of Array.isArray(stream) ? stream : [stream]) {
      await new Promise<void>((resolve) => term.write(piece, resolve));
    }
    const active = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < rows; y++) {
      lines.push(active.getLine(active.viewportY + y)?.translateToString(true) ?? "");
    }
    return { lines, cursor: [active.cursorX, active.cursorY], buffer: active.type };
  } finally {
    term.dispose();
  }
}

/** A piece of a replay: bytes or text to write, or a resize at that point of the stream. */
export type ReplayPiece = string | Uint8Array | { cols: number; rows: number };

/**
 * What a stream draws on a fresh `cols`x`rows` xterm, as a repaint carrying `scrollback` lines
 * must reproduce it: the last `rows + scrollback` lines (right-trimmed), the cursor, the buffer.
 */
export async function replay(
  pieces: ReplayPiece[],
  cols: number,
  rows: number,
  scrollback = 200,
): Promise<{ lines: string[]; cursor: [number, number]; buffer: string }> {
  const term = new Xterm({ cols, rows, scrollback: 1000, allowProposedApi: true });
  try {
    for (const piece of pieces) {
      if (typeof piece === "string" || piece instanceof Uint8Array) {
        await new Promise<void>((resolve) => term.write(piece, resolve));
      } else term.resize(piece.cols, piece.rows);
    }
    const b = term.buffer.active;
    const lines: string[] = [];
    for (let y = Math.max(0, b.length - term.rows - scrollback); y < b.length; y++) {
      lines.push(b.getLine(y)?.translateToString(true) ?? "");
    }
    return { lines, cursor: [b.cursorX, b.cursorY], buffer: b.type };
  } finally {
    term.dispose();
  }
}

/** Decodes bytes as UTF-8. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A ViewerSink that records what it is sent, with a buffered amount the test sets. */
export class RecordingSink implements ViewerSink {
  json: Record<string, unknown>[] = [];
  frames: TerminalOutputFrame[] = [];
  /** What a client would write into its terminal, in order: each screen, then each frame. */
  stream: (string | Uint8Array)[] = [];
  cols = 0;
  rows = 0;
  pending = 0;

  sendJson(msg: unknown): void {
    const frame = msg as Record<string, unknown>;
    this.json.push(frame);
    if (frame.kind === "terminal_view") {
      this.stream.push(frame.screen as string);
      this.cols = frame.cols as number;
      this.rows = frame.rows as number;
    }
  }
  sendBinary(bytes: Uint8Array): void {
    const decoded = decodeTerminalOutput(bytes);
    if (!decoded.ok) throw new Error(decoded.why);
    this.frames.push(decoded.frame);
    this.stream.push(decoded.frame.bytes);
  }
  buffered(): number {
    return this.pending;
  }
  /** The last sequence this sink can draw: the newest frame's, or the newest screen's. */
  lastSeq(): number {
    const view = this.json.findLast((m) => m.kind === "terminal_view");
    const frame = this.frames.at(-1)?.seq ?? 0;
    return Math.max(frame, (view?.seq as number | undefined) ?? 0);
  }
  /** Everything drawn as text (screens and frames), for "did this appear" checks. */
  text(): string {
    return this.stream.map((p) => typeof p === "string" ? p : text(p)).join("");
  }
  views(): Record<string, unknown>[] {
    return this.json.filter((m) => m.kind === "terminal_view");
  }
  controls(): Record<string, unknown>[] {
    return this.json.filter((m) => m.kind === "terminal_control");
  }
  /** What this client's screen shows now. */
  draw(): ReturnType<typeof visibleText> {
    return visibleText(this.stream, this.cols, this.rows);
  }
}
