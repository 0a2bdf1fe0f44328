/**
 * The two arms of tools/bench/terminal.ts and the check that keeps either from looking fast by
 * dropping bytes: the PTY read alone (node-pty in this process), and forge's terminal (forge as
 * its own process) written to real socket viewers that decode kind-4 frames.
 *
 * Both arms run the same command in a bash at 80x24: `cat` of a file of base64 lines between
 * two markers. The PTY turns each "\n" into "\r\n" (onlcr), so what the shell produced between
 * the markers is known exactly, and every arm's bytes are compared with it.
 */
import pty from "@lydell/node-pty";
import { FLOOD_QUIET_MS } from "../../../subsystems/terminal/model.ts";

// Markers hold '-', which base64 never writes; the shell computes their numbers, so the echo
// of the typed command cannot match them.
const START = "BENCH-START-2\r\n";
const END = "BENCH-END-42";
const enc = new TextEncoder();
const latin1 = new TextDecoder("latin1");

/** The command each burst types. */
export function burstCommand(file: string): string {
  return `echo BENCH-START-$((1+1)); cat ${file}; echo BENCH-END-$((6*7))\r`;
}

/** The bytes a PTY turns `file`'s content into: "\n" becomes "\r\n". */
export function expectedBytes(content: Uint8Array): Uint8Array {
  let lf = 0;
  for (const b of content) if (b === 0x0a) lf++;
  const out = new Uint8Array(content.length + lf);
  let j = 0;
  for (const b of content) {
    if (b === 0x0a) out[j++] = 0x0d;
    out[j++] = b;
  }
  return out;
}

/** Collects a byte stream; resolves `done` once the end marker has arrived. */
export class StreamCheck {
  #chunks: Uint8Array[] = [];
  #tail = "";
  #seen = Promise.withResolvers<number>();
  #watches: { text: string; hit: () => void }[] = [];
  bytes = 0;
  frames = 0;
  /** The stream's last characters, for a report when the marker never came. */
  last = "";
  /** Called with every chunk first (the keystroke arm waits for its echo here). */
  tap: ((bytes: Uint8Array) => void) | null = null;
  /** Sequence gaps seen between frames. */
  gaps = 0;
  /** Fresh screens sent in place of bytes (spec: a viewer that fell behind gets a screen). */
  fresh = 0;
  #lastSeq = -1;

  /** Resolves with performance.now() at the chunk that carried the end marker. */
  get done(): Promise<number> {
    return this.#seen.promise;
  }

  /**
   * Takes one chunk; `owned` when nothing else will write into its buffer (a WebSocket message
   * is), else it is copied. Kept cheap: the readers share this process's thread with the arm.
   */
  feed(bytes: Uint8Array, seq?: number, owned = false): void {
    this.tap?.(bytes);
    if (seq !== undefined) {
      if (this.#lastSeq >= 0 && seq !== ((this.#lastSeq + 1) >>> 0)) this.gaps++;
      this.#lastSeq = seq;
    }
    this.#chunks.push(owned ? bytes : bytes.slice());
    this.bytes += bytes.length;
    this.frames++;
    // Every marker holds '-', which base64 never writes: only around one is text decoded.
    const tail32 = (b: Uint8Array) =>
      String.fromCharCode(...b.subarray(Math.max(0, b.length - 32)));
    if (bytes.indexOf(0x2d) >= 0 || this.#tail.includes("-")) {
      const text = this.#tail + latin1.decode(bytes);
      if (text.includes(END)) this.#seen.resolve(performance.now());
      for (const w of [...this.#watches]) if (text.includes(w.text)) w.hit();
      this.#tail = text.slice(-32);
    } else this.#tail = (this.#tail + tail32(bytes)).slice(-32);
    this.last = this.#tail;
  }

  /**
   * A fresh screen in place of bytes (the viewer fell behind, spec: binary kind 4): the stream
   * continues after `seq`; the burst's bytes can no longer be compared, but its end may be drawn.
   */
  screen(text: string, seq: number): void {
    this.fresh++;
    this.#lastSeq = seq;
    if (text.includes(END)) this.#seen.resolve(performance.now());
  }

  /** Resolves when `text` (under 32 characters) next arrives. */
  watch(text: string): Promise<void> {
    this.#tail = "";
    const { promise, resolve } = Promise.withResolvers<void>();
    const w = {
      text,
      hit: () => {
        this.#watches = this.#watches.filter((x) => x !== w);
        resolve();
      },
    };
    this.#watches.push(w);
    return promise;
  }

  /** Starts a fresh burst: forgets what came before. */
  reset(): void {
    this.#chunks = [];
    this.#tail = "";
    this.bytes = 0;
    this.frames = 0;
    this.gaps = 0;
    this.fresh = 0;
    this.#seen = Promise.withResolvers<number>();
  }

  /** Whether the bytes between the markers are exactly `expected`; else a sentence why not. */
  verify(expected: Uint8Array): string | null {
    if (this.fresh) return `fell behind: ${this.fresh} fresh screens in place of bytes`;
    const all = concat(this.#chunks);
    const start = indexOf(all, enc.encode(START));
    const end = indexOf(all, enc.encode(END), start);
    if (start < 0 || end < 0) return `markers missing (start ${start}, end ${end})`;
    const body = all.subarray(start + START.length, end);
    if (body.length !== expected.length) {
      return `${body.length} bytes between the markers, the shell wrote ${expected.length}`;
    }
    for (let i = 0; i < body.length; i++) {
      if (body[i] !== expected[i]) return `byte ${i} differs`;
    }
    return this.gaps ? `${this.gaps} sequence gaps` : null;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Where `needle` (which holds a '-') first starts in `hay` at or after `from`; -1 if nowhere. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  // Only around a '-' can a marker start, and base64 writes none: the native scan finds them.
  const dash = needle.indexOf(0x2d);
  for (let d = hay.indexOf(0x2d, Math.max(0, from) + dash); d >= 0; d = hay.indexOf(0x2d, d + 1)) {
    const i = d - dash;
    let j = 0;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** One arm's result: wall time from the typed command to the end marker, and what moved. */
export interface ArmResult {
  ms: number;
  /** Bytes each reader got in the burst (one per viewer for forge). */
  bytes: number[];
  frames: number[];
  /** Null when every reader's bytes equal what the shell wrote; else why not. */
  wrong: string | null;
  /** CPU ms of the reading process (forge for the forge arm) and of this one, every thread. */
  cpu: { reader: number; here: number };
  /** The share of both cores the machine was busy, and the ms stolen from it (10 ms ticks). */
  machineBusy: { busy: number; stolenMs: number };
  /** The reading process's total CPU ms when the arm ended (to price what it did after). */
  readerCpuAtEnd: number;
}

/**
 * A process's CPU time in ms: the sum of its threads' scheduler run times (/proc/<pid>/task/
 * <tid>/schedstat, the scheduler's own ns clock rather than 10 ms ticks). A thread that exits
 * inside a window takes its time with it, so a window can only read low.
 */
export function cpuMs(pid: number): number {
  let sum = 0;
  for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/schedstat`).split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return sum / 1e6;
}

/** The machine's busy, idle and stolen jiffies so far (/proc/stat's first line). */
export interface Jiffies {
  busy: number;
  idle: number;
  steal: number;
}

export function machine(): Jiffies {
  const f = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).map(Number);
  const idle = f[4] + f[5];
  const busy = f.slice(1, 9).reduce((a, b) => a + b, 0) - idle;
  return { busy, idle, steal: f[8] };
}

/**
 * Between two readings: the machine's busy share (steal counted busy) and the ms the
 * hypervisor stole from its vCPUs, which slows an arm without any process here doing more.
 */
export function busyShare(a: Jiffies, b: Jiffies): { busy: number; stolenMs: number } {
  const busy = b.busy - a.busy;
  const all = busy + b.idle - a.idle;
  return { busy: all > 0 ? busy / all : 0, stolenMs: (b.steal - a.steal) * 10 };
}

/**
 * Waits until `pid` has been still (under 5% of a core in each 50 ms) for longer than the screen
 * model waits for quiet after a flood (model.ts FLOOD_QUIET_MS): forge parses a burst after it
 * has relayed it, and that must not run into the next arm. Gives up after 10 s. Returns the CPU
 * ms the process spent meanwhile (for forge after a burst: the model catching up).
 */
export async function still(pid: number): Promise<number> {
  const end = performance.now() + 10_000;
  const start = cpuMs(pid);
  let stillMs = 0;
  for (let before = start; performance.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
    const now = cpuMs(pid);
    stillMs = now - before < 2.5 ? stillMs + 50 : 0;
    if (stillMs > FLOOD_QUIET_MS) return now - start;
    before = now;
  }
  return cpuMs(pid) - start;
}

/** The PTY read alone: a bash in node-pty, counted and checked as it is read. */
export async function rawPty(cwd: string, env: Record<string, string>) {
  const p = pty.spawn("/bin/bash", [], {
    name: "xterm-256color",
    cols: 80,
    rows: 24,
    cwd,
    env: { ...Deno.env.toObject(), ...env },
    encoding: null,
  } as unknown as pty.IPtyForkOptions);
  const check = new StreamCheck();
  p.onData((d) => check.feed(d as unknown as Uint8Array));
  await ready(check, (s) => p.write(s));
  return {
    async burst(file: string, expected: Uint8Array): Promise<ArmResult> {
      check.reset();
      const m0 = machine();
      const c0 = cpuMs(Deno.pid);
      const t0 = performance.now();
      p.write(burstCommand(file));
      const end = await deadline(
        check.done,
        () => `pty: ${check.bytes} bytes, ending ${JSON.stringify(check.last)}`,
      );
      const ms = end - t0;
      const cpu = cpuMs(Deno.pid) - c0;
      const machineBusy = busyShare(m0, machine());
      return {
        machineBusy,
        readerCpuAtEnd: c0 + cpu,
        ms,
        bytes: [check.bytes],
        frames: [check.frames],
        wrong: check.verify(expected),
        cpu: { reader: cpu, here: cpu },
      };
    },
    echo: (keys: number) => echoes(check, (s) => p.write(s), keys),
    async close(): Promise<void> {
      const exited = new Promise((resolve) => p.onExit(resolve));
      p.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * One burst to socket viewers fed by the process `pid` (forge, or the bare relay): types the burst
 * command, waits until every viewer's check has the end marker (`state(i)` says what viewer i had
 * if 60 s pass first), runs `ended`, then checks every viewer's bytes against `expected`.
 */
export async function viewersBurst(o: {
  pid: number;
  checks: StreamCheck[];
  type: (s: string) => void;
  file: string;
  expected: Uint8Array;
  state?: (i: number) => string;
  ended?: () => Promise<unknown>;
}): Promise<ArmResult> {
  const { pid, checks } = o;
  checks.forEach((c) => c.reset());
  const m0 = machine();
  const c0 = { reader: cpuMs(pid), here: cpuMs(Deno.pid) };
  const t0 = performance.now();
  o.type(burstCommand(o.file));
  const state = o.state ?? ((i: number) => `${checks[i].bytes} bytes`);
  const ends = await deadline(
    Promise.all(checks.map((c) => c.done)),
    () => checks.map((_, i) => `viewer ${i + 1}: ${state(i)}`).join("; "),
  );
  const cpu = { reader: cpuMs(pid) - c0.reader, here: cpuMs(Deno.pid) - c0.here };
  const machineBusy = busyShare(m0, machine());
  await o.ended?.();
  const wrong = checks.map((c, i) => {
    const why = c.verify(o.expected);
    return why && `viewer ${i + 1}: ${why}`;
  }).filter(Boolean);
  return {
    ms: Math.max(...ends) - t0,
    bytes: checks.map((c) => c.bytes),
    frames: checks.map((c) => c.frames),
    wrong: wrong.length ? wrong.join("; ") : null,
    cpu,
    machineBusy,
    readerCpuAtEnd: c0.reader + cpu.reader,
  };
}

/**
 * Keystroke to echo at a bash prompt: `keys` x's typed one at a time, each timed until the chunk
 * carrying its echo is read; the line is cleared every 60 keys so readline's redraws stay
 * one-character echoes. Returns the times in ms.
 */
export async function echoes(
  check: StreamCheck,
  write: (s: string) => void,
  keys: number,
): Promise<number[]> {
  const times: number[] = [];
  try {
    for (let i = 0; i < keys; i++) {
      if (i % 60 === 59) {
        const cleared = new Promise<void>((resolve) => check.tap = () => resolve());
        write("\x15");
        await deadline(cleared, () => "no answer to ^U");
      }
      const echoed = new Promise<void>((resolve) =>
        check.tap = (b) => b.includes(0x78) && resolve()
      );
      const t0 = performance.now();
      write("x");
      await deadline(echoed, () => `no echo of key ${i}`);
      times.push(performance.now() - t0);
    }
  } finally {
    check.tap = null;
    write("\x15");
  }
  return times;
}

/** Types a command and waits for its computed answer: the shell is at a prompt. */
export async function ready(check: StreamCheck, write: (s: string) => void): Promise<void> {
  const seen = check.watch("ready-4");
  write("echo ready-$((2+2))\r");
  await deadline(seen, () => `no prompt: ${JSON.stringify(check.last)}`);
}

/** `work`, or a rejection saying what was there when 60 s passed without it. */
export async function deadline<T>(work: Promise<T>, state: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`nothing after 60 s: ${state()}`)), 60_000)
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
