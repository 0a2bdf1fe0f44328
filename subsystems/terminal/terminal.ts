import { readWords } from "../../server/subsystem.ts";
/**
 * One terminal: a real PTY running the user's shell, and a server-side screen model fed the same
 * bytes, so an attach or a resume is answered with the current screen and the sequence the byte
 * stream continues from (spec: terminal_view).
 *
 * The read path only copies: reads are gathered into chunks while output floods (coalesce.ts),
 * each chunk is numbered and relayed, and the model parses behind the stream (model.ts), so
 * viewers get a burst at the PTY's rate.
 *
 * Transport-independent: output is handed to listeners as (seq, bytes); the viewer set and the
 * socket layer decide who hears it.
 */
import pty from "@lydell/node-pty";
import { type OutputChunk, ScreenModel, seqAfter } from "./model.ts";

export type { OutputChunk };
import { HOLD_MS, MAX_BYTES, ReadCoalescer } from "./coalesce.ts";
import { OUTPUT_HEADER_BYTES, writeTerminalOutputHeader } from "../../protocol/terminal_frames.ts";
import { killSession } from "./proc.ts";
import { type TerminalState, TerminalStateTracker } from "./state.ts";

export { seqAfter };

/** How to open a terminal. */
export interface ShellTerminalOptions {
  /** The wire id the kind-4/5 frames carry (u16). */
  id: number;
  /** The directory the shell starts in. */
  cwd: string;
  cols?: number;
  rows?: number;
  /** Defaults to `$SHELL`, else /bin/bash. */
  shell?: string;
  /** Merged over this process's environment; TERM is always xterm-256color. */
  env?: Record<string, string>;
  /** Lines the screen model keeps above the screen. Default 1000. */
  scrollback?: number;
  /** Lines of that scrollback a repaint carries. Default 200: repaints stay a few ms. */
  repaintScrollback?: number;
  /** Unparsed bytes past which the model parses while output still flows. Default 8 MiB. */
  modelParseAt?: number;
  /** Unparsed bytes at which the PTY is paused until the model catches up. Default 16 MiB. */
  modelHighWater?: number;
  /** Quiet time after output before the model parses it. Default 10 ms. */
  modelQuietMs?: number;
  /** The quiet time while the model trails by a flood (model.ts). Default 250 ms. */
  modelFloodQuietMs?: number;
  /** How often the state tracker samples /proc and termios. Default 250 ms. */
  pollMs?: number;
}

/** A repaint: a VT stream that draws the current screen, and the last chunk it reflects. */
export interface TerminalScreen {
  cols: number;
  rows: number;
  /** The last output sequence the repaint reflects; 0 before any output. */
  seq: number;
  screen: string;
}

// RIS first, so a client can write a repaint into a terminal that already holds a screen
// (a resume after a pause, or a fresh screen to a viewer that fell behind).
const RESET = "\x1bc";

/** A seat's shell: a PTY, a screen model, output numbering, state and title. */
export class ShellTerminal {
  readonly id: number;
  readonly shell: string;
  readonly cwd: string;
  /** The shell's pid; also its session id, since the PTY child is a session leader. */
  readonly pid: number;
  /** Settles when the shell process has exited, with its code (null when a signal ended it). */
  readonly exited: Promise<{ code: number | null; signal: number | null }>;

  #pty: pty.IPty;
  #model: ScreenModel;
  #reads: ReadCoalescer;
  #tracker: TerminalStateTracker;
  #cols: number;
  #rows: number;
  #seq = 0;
  #ptyPaused = false;
  #repaintScrollback: number;
  #title: string | null = null;
  #alive = true;
  #closing: Promise<void> | null = null;
  #outputListeners = new Set<(chunk: OutputChunk) => void>();
  #changeListeners = new Set<() => void>();

  constructor(options: ShellTerminalOptions) {
    this.id = options.id;
    this.cwd = options.cwd;
    this.shell = options.shell ?? Deno.env.get("SHELL") ?? "/bin/bash";
    this.#cols = options.cols ?? 80;
    this.#rows = options.rows ?? 24;
    if (!Number.isInteger(this.id) || this.id < 0 || this.id > 0xffff) {
      throw new RangeError(`terminal id ${this.id} is not a u16: no frame could carry it`);
    }
    checkSize(this.id, this.#cols, this.#rows);
    // node-pty reports a bad cwd or shell only as a child exiting with 1; say which, up front.
    checkPath(this.id, "cwd", this.cwd, (info) => info.isDirectory);
    checkPath(this.id, "shell", this.shell, (info) => info.isFile);
    this.#repaintScrollback = options.repaintScrollback ?? 200;
    const highWater = options.modelHighWater ?? 16 * 1024 * 1024;
    this.#model = new ScreenModel({
      cols: this.#cols,
      rows: this.#rows,
      scrollback: options.scrollback ?? 1000,
      parseAt: Math.min(options.modelParseAt ?? 8 * 1024 * 1024, highWater),
      highWater,
      quietMs: options.modelQuietMs ?? 10,
      floodQuietMs: options.modelFloodQuietMs,
      onTitle: (title) => {
        this.#title = title;
        this.#emitChange();
      },
      onPressure: (over) => this.#pressure(over),
    });
    // Each chunk is read with room for its kind-4 header before it: framed where it lies.
    this.#reads = new ReadCoalescer(
      (bytes) => this.#onData(bytes),
      HOLD_MS,
      MAX_BYTES,
      OUTPUT_HEADER_BYTES,
    );
    // encoding: null hands us the raw bytes, so a UTF-8 sequence split across reads reaches
    // the viewers exactly as the shell wrote it (the option is missing from the typings).
    const spawnOptions = {
      name: "xterm-256color",
      cols: this.#cols,
      rows: this.#rows,
      cwd: this.cwd,
      env: { ...Deno.env.toObject(), ...options.env, TERM: "xterm-256color" },
      encoding: null,
    };
    this.#pty = pty.spawn(this.shell, [], spawnOptions as unknown as pty.IPtyForkOptions);
    this.pid = this.#pty.pid;
    const fd = (this.#pty as unknown as { fd?: unknown }).fd;
    this.#tracker = new TerminalStateTracker({
      pid: this.pid,
      fd: typeof fd === "number" ? fd : null,
      pollMs: options.pollMs ?? 250,
      onChange: () => this.#emitChange(),
    });
    this.#pty.onData((data) => this.#reads.read(data as unknown as Uint8Array));
    let settle: (value: { code: number | null; signal: number | null }) => void = () => {};
    this.exited = new Promise((resolve) => settle = resolve);
    this.#pty.onExit(({ exitCode, signal }) => {
      this.#alive = false;
      // The shell's last bytes go out before its exit is told.
      this.#reads.flush();
      // node-pty reports signal 0 for a plain exit.
      const killedBy = signal ? signal : null;
      const code = killedBy === null ? exitCode : null;
      this.#tracker.exited(code, killedBy);
      settle({ code, signal: killedBy });
    });
  }

  get cols(): number {
    return this.#cols;
  }
  get rows(): number {
    return this.#rows;
  }
  /** Whether the shell process is still running. */
  get alive(): boolean {
    return this.#alive;
  }
  /** The last output sequence handed to listeners; 0 before any output. */
  get seq(): number {
    return this.#seq;
  }
  /** The title the shell set with OSC 0 or 2; null until it sets one. */
  get title(): string | null {
    return this.#title;
  }
  /** What the shell is doing, and how that was detected. */
  get state(): TerminalState {
    return this.#tracker.state;
  }

  /** Hears every output chunk, in order. Returns the unsubscribe. */
  onOutput(listener: (chunk: OutputChunk) => void): () => void {
    this.#outputListeners.add(listener);
    return () => this.#outputListeners.delete(listener);
  }

  /** Hears every change of state, title, size or liveness. Returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Types into the shell. Throws naming the terminal when the shell has exited. */
  write(data: string | Uint8Array): void {
    if (!this.#alive || this.#closing) {
      throw new Error(`terminal ${this.id}: the shell has exited, input is not delivered`);
    }
    // node-pty's write hands anything to a net.Socket, which takes bytes as well as strings.
    this.#pty.write(data as unknown as string);
    this.#tracker.soon();
  }

  /** Resizes the PTY and the screen model together (spec: terminal_resize). */
  resize(cols: number, rows: number): void {
    checkSize(this.id, cols, rows);
    if (cols === this.#cols && rows === this.#rows) return;
    if (this.#alive) this.#pty.resize(cols, rows);
    // The bytes read before the resize were written at the old size: the model parses them so.
    this.#reads.flush();
    this.#model.resize(cols, rows);
    this.#cols = cols;
    this.#rows = rows;
    this.#emitChange();
  }

  /**
   * The model's screen as a VT stream (a full reset, then the scrollback tail, the screen, the
   * alternate buffer when a full-screen program holds it, the modes and the cursor), its size and
   * the last sequence it reflects. The model trails the stream: the chunks after `seq` are in
   * `unparsedAfter(seq)`, and the two draw the current screen exactly while `screenExact`.
   */
  screen(): TerminalScreen {
    const m = this.#model;
    const screen = RESET + m.serialize(this.#repaintScrollback);
    return { cols: m.cols, rows: m.rows, seq: m.parsedSeq, screen };
  }

  /** False while a resize waits behind unparsed bytes (a screen now would be drawn at the wrong size). */
  get screenExact(): boolean {
    return this.#model.exactNow;
  }

  /** Bytes handed to listeners that the model has not parsed yet. */
  get unparsedBytes(): number {
    return this.#model.unparsedBytes;
  }

  /** Resolves once the model has parsed everything the shell wrote before the call. */
  settled(): Promise<void> {
    this.#reads.flush();
    return this.#model.settled();
  }

  /**
   * The model's last `lines` lines (scrollback and screen) as plain text, trailing blank lines
   * dropped, once it has parsed everything written so far: what an agent reads of the screen
   * (terminal__read).
   */
  async text(lines: number = this.#rows): Promise<string> {
    await this.settled();
    return this.#model.text(lines);
  }

  /** The chunks already handed to listeners that the model has not parsed yet, after `seq`. */
  unparsedAfter(seq: number): OutputChunk[] {
    return this.#model.unparsedAfter(seq);
  }

  /**
   * Ends the terminal: SIGHUP to the shell, up to 500 ms for it to go, then SIGKILL to every
   * process still in the shell's session (background and nohup jobs included), waiting until
   * /proc shows none. Rejects naming survivors (a process that called setsid() escapes).
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#tracker.stop();
    // A paused socket never reads the EIO that tells node-pty the shell has gone.
    if (this.#ptyPaused) this.#pty.resume();
    if (this.#alive) {
      try {
        this.#pty.kill("SIGHUP");
      } catch {
        // Already gone between the check and the signal.
      }
      await within(this.exited, 500);
    }
    await killSession(this.pid);
    await within(this.exited, 2000);
    this.#reads.dispose();
    this.#model.dispose();
    this.#tracker.closed();
    this.#outputListeners.clear();
    this.#changeListeners.clear();
  }

  /**
   * One coalesced chunk: numbered, queued for the model (which only queues: the parse comes
   * later, model.ts), then relayed. Queued first, so a screen taken inside a listener (a viewer
   * caught up mid fan-out) is followed by this chunk too and the stream stays gapless.
   */
  #onData(bytes: Uint8Array): void {
    this.#seq = (this.#seq + 1) >>> 0;
    const room = new Uint8Array(
      bytes.buffer,
      bytes.byteOffset - OUTPUT_HEADER_BYTES,
      OUTPUT_HEADER_BYTES + bytes.length,
    );
    const chunk = {
      seq: this.#seq,
      bytes,
      frame: writeTerminalOutputHeader(room, this.id, this.#seq),
    };
    this.#model.push(chunk);
    for (const listener of this.#outputListeners) listener(chunk);
    this.#tracker.sawOutput(bytes);
  }

  /** The model trails by its bound: the PTY waits for it (and the shell's writes block). */
  #pressure(over: boolean): void {
    if (over === this.#ptyPaused || this.#closing) return;
    this.#ptyPaused = over;
    if (over) this.#pty.pause();
    else this.#pty.resume();
  }

  #emitChange(): void {
    for (const listener of this.#changeListeners) listener();
  }
}

function checkSize(id: number, cols: number, rows: number): void {
  const fits = (n: number) => Number.isInteger(n) && n >= 1 && n <= 1000;
  if (!fits(cols) || !fits(rows)) {
    throw new RangeError(`terminal ${id}: size ${cols}x${rows} is outside 1..1000 by 1..1000`);
  }
}

function checkPath(
  id: number,
  what: string,
  path: string,
  ok: (info: Deno.FileInfo) => boolean,
): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    throw new Error(`terminal ${id}: ${what} ${path} cannot be used: ${readWords(e)}`, {
      cause: e,
    });
  }
  if (!ok(info)) {
    const kind = what === "cwd" ? "a directory" : "a file";
    throw new Error(`terminal ${id}: ${what} ${path} is not ${kind}`);
  }
}

/** Waits for `promise` up to `ms`, clearing its timer either way. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
