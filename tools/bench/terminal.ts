/**
 * Terminal bench: throughput of a large output burst read from the PTY alone, through the
 * terminal (PTY + screen model) to 0, 1 and 5 viewers, as MB/s and as a ratio to the PTY alone;
 * and keystroke-to-echo latency (p50/p99) at a bash prompt, raw and through a viewer.
 *
 *   tools/deno.sh run --allow-all tools/bench/terminal.ts [--mb 50] [--keys 300]
 *
 * Viewers are counting sinks (buffered() is 0), so the figures are the terminal core's cost,
 * not a socket's. Each burst runs --runs times (default 3) after a 5 MB warm-up that JITs the
 * screen model's parser; the median run is printed.
 */
import pty from "@lydell/node-pty";
import { type OutputChunk, ShellTerminal } from "../../subsystems/terminal/terminal.ts";
import { ViewerSet, type ViewerSink } from "../../subsystems/terminal/viewers.ts";

const args = Deno.args;
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MB = flag("mb", 50);
const KEYS = flag("keys", 300);
const RUNS = flag("runs", 3);
const SEAT = { org: "bench", project: "terminal", label: "lead" };
const MARK = "BENCH-DONE-";
// The marker's number is computed by the shell, so the echo of the typed command cannot match.
const BURST = `head -c ${MB}M /dev/urandom | base64; echo ${MARK}$((6*7))\r`;

const home = await Deno.makeTempDir({ prefix: "forge-terminal-bench-" });
const env = { HOME: home, PS1: "$ ", HISTFILE: "/dev/null" };

const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/** Resolves when `text` appears in the stream fed to the returned function. */
function watcher(text: string): { feed: (bytes: Uint8Array) => void; seen: Promise<void> } {
  const decoder = new TextDecoder();
  let tail = "";
  let done: () => void = () => {};
  const seen = new Promise<void>((resolve) => done = resolve);
  return {
    seen,
    feed(bytes) {
      tail = (tail + decoder.decode(bytes, { stream: true })).slice(-text.length - 4096);
      if (tail.includes(text)) done();
    },
  };
}

/** A viewer that only counts what it is sent. */
class CountingSink implements ViewerSink {
  bytes = 0;
  frames = 0;
  onFrame: ((bytes: Uint8Array) => void) | null = null;
  sendJson(): void {}
  sendBinary(bytes: Uint8Array): void {
    this.bytes += bytes.length - 7;
    this.frames++;
    this.onFrame?.(bytes.subarray(7));
  }
  buffered(): number {
    return 0;
  }
}

/** Waits for a fresh bash's first prompt. */
async function prompt(feedOf: (w: ReturnType<typeof watcher>) => void, write: (s: string) => void) {
  const w = watcher("ready-4");
  feedOf(w);
  write("echo ready-$((2+2))\r");
  await w.seen;
}

async function rawBurst(): Promise<{ bytes: number; ms: number; chunks: number }> {
  const p = pty.spawn("/bin/bash", [], {
    name: "xterm-256color",
    cols: 80,
    rows: 24,
    cwd: home,
    env: { ...Deno.env.toObject(), ...env },
    encoding: null,
  } as unknown as pty.IPtyForkOptions);
  let current: ReturnType<typeof watcher> | null = null;
  let bytes = 0;
  let chunks = 0;
  p.onData((d) => {
    const b = d as unknown as Uint8Array;
    bytes += b.length;
    chunks++;
    current?.feed(b);
  });
  await prompt((w) => current = w, (s) => p.write(s));
  const w = watcher(`${MARK}42`);
  current = w;
  bytes = 0;
  chunks = 0;
  const t0 = performance.now();
  p.write(BURST);
  await w.seen;
  const ms = performance.now() - t0;
  const counted = { bytes, chunks };
  const exited = new Promise((resolve) => p.onExit(resolve));
  p.kill("SIGKILL");
  await exited;
  return { ...counted, ms };
}

async function terminalBurst(viewerCount: number, burst = BURST) {
  const term = new ShellTerminal({ id: 1, cwd: home, shell: "/bin/bash", env });
  const viewers = new ViewerSet(term, { seat: SEAT });
  const sinks = Array.from({ length: viewerCount }, () => new CountingSink());
  sinks.forEach((s) => viewers.attach(s));
  let current: ReturnType<typeof watcher> | null = null;
  let bytes = 0;
  let chunks = 0;
  term.onOutput((chunk) => {
    bytes += chunk.bytes.length;
    chunks++;
    current?.feed(chunk.bytes);
  });
  await prompt((w) => current = w, (s) => term.write(s));
  const w = watcher(`${MARK}42`);
  current = w;
  bytes = 0;
  chunks = 0;
  sinks.forEach((s) => s.bytes = 0);
  const t0 = performance.now();
  term.write(burst);
  await w.seen;
  const ms = performance.now() - t0;
  // Read at the marker: the viewer set hears each chunk before this listener does, and the
  // shell's later prompt and its exit on close must not count.
  const counted = { bytes, chunks, delivered: sinks.every((s) => s.bytes === bytes) };
  // The model may still be parsing its bounded backlog; a repaint waits for nothing, but the
  // figure says how far behind it ran.
  while (term.screen().seq !== term.seq) await new Promise((r) => setTimeout(r, 5));
  const modelMs = performance.now() - t0;
  const s0 = performance.now();
  const shot = term.screen();
  const screenMs = performance.now() - s0;
  viewers.dispose();
  await term.close();
  return { ...counted, ms, modelMs, screenMs, screenChars: shot.screen.length };
}

/** The viewer set's own cost: 75 MB in 1500-byte chunks from a stand-in terminal, no PTY. */
function fanOutOnly(viewerCount: number): number {
  let emit: (chunk: OutputChunk) => void = () => {};
  const standIn = {
    id: 1,
    onOutput(listener: (chunk: OutputChunk) => void) {
      emit = listener;
      return () => {};
    },
    screen: () => ({ cols: 80, rows: 24, seq: 0, screen: "" }),
    unparsedAfter: () => [],
  } as unknown as ShellTerminal;
  const viewers = new ViewerSet(standIn, { seat: SEAT });
  for (let i = 0; i < viewerCount; i++) viewers.attach(new CountingSink());
  const bytes = new Uint8Array(1500);
  const t0 = performance.now();
  for (let seq = 1; seq <= 50_000; seq++) emit({ seq, bytes });
  const ms = performance.now() - t0;
  viewers.dispose();
  return mbps(75e6, ms);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function latency(through: "raw" | "viewer"): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  // Called with each chunk; a keystroke's sample ends at the chunk carrying its echo.
  let next: ((bytes: Uint8Array) => void) | null = null;
  let write: (s: string) => void;
  let stop: () => Promise<void>;
  let feedTo: ((b: Uint8Array) => void) | null = null;
  if (through === "raw") {
    const p = pty.spawn("/bin/bash", [], {
      name: "xterm-256color",
      cwd: home,
      env: { ...Deno.env.toObject(), ...env },
      encoding: null,
    } as unknown as pty.IPtyForkOptions);
    p.onData((d) => {
      feedTo?.(d as unknown as Uint8Array);
      next?.(d as unknown as Uint8Array);
    });
    write = (s) => p.write(s);
    stop = async () => {
      const exited = new Promise((resolve) => p.onExit(resolve));
      p.kill("SIGKILL");
      await exited;
    };
  } else {
    const term = new ShellTerminal({ id: 2, cwd: home, shell: "/bin/bash", env });
    const viewers = new ViewerSet(term, { seat: SEAT });
    const sink = new CountingSink();
    const me = viewers.attach(sink);
    viewers.control(me, true);
    sink.onFrame = (b) => {
      feedTo?.(b);
      next?.(b);
    };
    write = (s) => {
      const r = viewers.input(me, s);
      if (!r.ok) throw new Error(r.why);
    };
    stop = async () => {
      viewers.dispose();
      await term.close();
    };
  }
  await prompt((w) => feedTo = w.feed, write);
  feedTo = null;
  for (let i = 0; i < KEYS; i++) {
    if (i % 60 === 59) {
      // Clear the line now and then so readline's redraws stay one-character echoes.
      const cleared = new Promise<void>((resolve) => next = () => resolve());
      write("\x15");
      await cleared;
    }
    const echoed = new Promise<void>((resolve) => next = (b) => b.includes(0x78) && resolve());
    const t0 = performance.now();
    write("x");
    await echoed;
    samples.push(performance.now() - t0);
  }
  next = null;
  await stop();
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 0.5), p99: pct(samples, 0.99) };
}

const median = <T extends { ms: number }>(runs: T[]): T =>
  runs.sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
async function repeat<T extends { ms: number }>(run: () => Promise<T>): Promise<T> {
  const runs: T[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  return median(runs);
}
try {
  console.log(`burst: head -c ${MB}M /dev/urandom | base64 at 80x24, median of ${RUNS}`);
  await terminalBurst(1, `head -c 5M /dev/urandom | base64; echo ${MARK}$((6*7))\r`);
  const raw = await repeat(rawBurst);
  const rawRate = mbps(raw.bytes, raw.ms);
  const avg = (bytes: number, chunks: number) => `${(bytes / chunks).toFixed(0)} B/chunk`;
  console.log(
    `  pty alone           ${(raw.bytes / 1e6).toFixed(1)} MB in ${raw.ms.toFixed(0)} ms = ` +
      `${rawRate.toFixed(1)} MB/s (${avg(raw.bytes, raw.chunks)})`,
  );
  for (const n of [0, 1, 5]) {
    const r = await repeat(() => terminalBurst(n));
    const rate = mbps(r.bytes, r.ms);
    console.log(
      `  terminal, ${n} viewer${n === 1 ? " " : "s"} ${(r.bytes / 1e6).toFixed(1)} MB in ` +
        `${r.ms.toFixed(0)} ms = ${rate.toFixed(1)} MB/s, ratio ${(rate / rawRate).toFixed(2)} ` +
        `(${avg(r.bytes, r.chunks)}); model caught up at ${r.modelMs.toFixed(0)} ms; ` +
        `screen() ${r.screenMs.toFixed(1)} ms (${r.screenChars} chars)` +
        (n ? `; every viewer got ${r.delivered ? "every byte" : "FEWER BYTES"}` : ""),
    );
  }
  fanOutOnly(5); // warm-up
  const fan = [1, 5].map((n) =>
    `${n} viewer${n === 1 ? "" : "s"} ${fanOutOnly(n).toFixed(0)} MB/s`
  );
  console.log(`  viewer fan-out alone (no PTY, no model): ${fan.join(", ")}`);
  for (const through of ["raw", "viewer"] as const) {
    const l = await latency(through);
    console.log(
      `keystroke-to-echo (${
        through === "raw" ? "pty alone" : "terminal + viewer"
      }, ${KEYS} keys at ` +
        `a bash prompt): p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`,
    );
  }
} finally {
  await Deno.remove(home, { recursive: true });
}
