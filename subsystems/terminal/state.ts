/**
 * What a terminal's shell is doing, for terminal_changed (spec: "a command starts, a password
 * is wanted, the shell exits"), with the `source` naming how each state was detected:
 *
 * - `opened` / `spawn`: the shell was started and nothing has run in it yet.
 * - `running` / `foreground_pgrp`: the PTY's foreground process group (field 8 of the shell's
 *   /proc stat) is not the shell's own, so a command holds the terminal; `command` is the comm of
 *   that group's leader.
 * - `idle` / `foreground_pgrp`: the shell holds its terminal again, after a command.
 * - `password` / `termios`: the line discipline has ECHO off with ICANON on, the mode sudo, ssh,
 *   passwd and `read -s` set for a hidden line (readline and full-screen programs turn ICANON
 *   off as well, so they do not read as one). Where tcgetattr cannot be called the fallback is
 *   `prompt_text`: the last output line ends like "Password:" while a command runs.
 * - `exited` / `pty_exit`: the shell ended, with its `code` (null when a signal ended it).
 * - `closed` / `close`: the terminal was closed and its processes killed.
 */
import type { TerminalSummary } from "../../protocol/mod.ts";
import { readStat } from "./proc.ts";
import { readTermios, termiosAvailable } from "./termios.ts";

/** A terminal's state; `command` rides `running`, `code` and `signal` ride `exited`. It is the
 * summary's own (protocol/terminal_summary.ts), so what the tracker reports is what crosses. */
export type TerminalState = TerminalSummary["state"];

/** What the tracker samples and whom it tells. */
export interface TrackerOptions {
  /** The shell's pid. */
  pid: number;
  /** The PTY master's fd, for tcgetattr; null when unknown. */
  fd: number | null;
  pollMs: number;
  /** Called after every real change of state. */
  onChange: () => void;
}

const PASSWORD_LINE = /(password|passphrase|passcode)[^\n]*:\s*$/i;
// Strips CSI and OSC sequences so the prompt fallback reads the words only.
// deno-lint-ignore no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g;
const SOON_MS = 30;

/** Samples a shell's process and line discipline and reports each real change once. */
export class TerminalStateTracker {
  #options: TrackerOptions;
  #state: TerminalState = { kind: "opened", source: "spawn" };
  #interval: ReturnType<typeof setInterval> | undefined;
  #polling = false;
  #soon: ReturnType<typeof setTimeout> | undefined;
  #useTermios: boolean;
  #lastLine = "";
  /** A fork-like foreground leader seen once, waiting for a second sample (see #poll). */
  #unconfirmed: string | null = null;
  #decoder = new TextDecoder();

  constructor(options: TrackerOptions) {
    this.#options = options;
    this.#useTermios = options.fd !== null && termiosAvailable();
    this.#interval = setInterval(() => this.poll(), options.pollMs);
  }

  get state(): TerminalState {
    return this.#state;
  }

  /** Samples again shortly: input or output usually means the state is about to move. */
  soon(): void {
    if (this.#interval === undefined || this.#soon !== undefined) return;
    this.#soon = setTimeout(() => {
      this.#soon = undefined;
      this.poll();
    }, SOON_MS);
  }

  /** Keeps the last output line for the prompt-text fallback. */
  sawOutput(bytes: Uint8Array): void {
    if (!this.#useTermios) {
      // Only the text after the chunk's last newline can be the last line: a flood's chunk is
      // not decoded whole. A newline byte never sits inside a UTF-8 sequence, so the decoder
      // starts afresh there.
      const nl = bytes.lastIndexOf(0x0a);
      let line = this.#lastLine;
      if (nl >= 0) {
        line = "";
        this.#decoder = new TextDecoder();
      }
      const tail = bytes.subarray(nl + 1, bytes.length).subarray(-800);
      const text = (line + this.#decoder.decode(tail, { stream: true })).replace(ESCAPES, "");
      this.#lastLine = text.slice(text.lastIndexOf("\n") + 1).slice(-200);
    }
    this.soon();
  }

  /** Samples now. */
  async poll(): Promise<void> {
    if (this.#interval === undefined || this.#polling) return;
    this.#polling = true;
    try {
      await this.#poll();
    } finally {
      this.#polling = false;
    }
  }

  async #poll(): Promise<void> {
    const stat = await readStat(this.#options.pid);
    if (!stat || this.#interval === undefined) return;
    const foreground = stat.tpgid > 0 && stat.tpgid !== this.#options.pid;
    if (!foreground) this.#unconfirmed = null;
    const flags = this.#useTermios && this.#options.fd !== null
      ? readTermios(this.#options.fd)
      : null;
    if (flags && !flags.echo && flags.icanon) {
      this.#set({ kind: "password", source: "termios" });
    } else if (!flags && foreground && PASSWORD_LINE.test(this.#lastLine)) {
      this.#set({ kind: "password", source: "prompt_text" });
    } else if (foreground) {
      const command = (await readStat(stat.tpgid))?.comm ?? "";
      // A child the shell forked but has not exec'd yet holds the terminal under the shell's own
      // name ("bash" before "sleep"). Telling it would flash a command that never ran, so a
      // leader named like the shell is told only when a second sample still sees it (a real
      // subshell does; a fork on its way to exec does not).
      const forkLike = command === stat.comm && this.#state.kind !== "running";
      const seen = `${stat.tpgid}:${command}`;
      if (forkLike && this.#unconfirmed !== seen) {
        this.#unconfirmed = seen;
        this.soon();
        return;
      }
      this.#unconfirmed = null;
      this.#set({ kind: "running", source: "foreground_pgrp", command });
    } else if (this.#state.kind !== "opened") {
      // "opened" stays until something has run: the shell at its first prompt is still new.
      this.#set({ kind: "idle", source: "foreground_pgrp" });
    }
  }

  /** The shell ended; sampling stops. */
  exited(code: number | null, signal: number | null): void {
    this.stop();
    this.#set({ kind: "exited", source: "pty_exit", code, signal });
  }

  /** The terminal was closed; sampling stops. */
  closed(): void {
    this.stop();
    this.#set({ kind: "closed", source: "close" });
  }

  /** Stops sampling without a change of state. */
  stop(): void {
    clearInterval(this.#interval);
    clearTimeout(this.#soon);
    this.#interval = undefined;
    this.#soon = undefined;
  }

  #set(next: TerminalState): void {
    if (JSON.stringify(next) === JSON.stringify(this.#state)) return;
    this.#state = next;
    this.#options.onChange();
  }
}
