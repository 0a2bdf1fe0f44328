/**
 * Lifecycle bench: the timings the tests used to assert, measured here instead, each beside the
 * bound that sets it (the floor no run can beat) so a reader sees what the machine added.
 *
 *   tools/deno.sh task bench lifecycle [--runs 5] [--skip-cli] [--skip-socket]
 *
 * Figures, each repeated --runs times (median (min..max) in ms):
 *   flush: quiet    a held run of token appends leaving after its last append (bound: 16 ms)
 *   flush: ceiling  a steady run (an append every 5 ms) leaving at its ceiling (bound: 100 ms)
 *   timer alone     a bare setTimeout(16): what the event loop alone adds to any timer
 *   stdin queue     64 lines of 16 KiB handed to a pipe nobody reads (floor: encoding them)
 *   close: busy CLI the real CLI mid-turn, close() to exit: EOF, the grace, SIGTERM (bound 500)
 *   close: kill     a child ignoring SIGTERM, close() to exit: both graces, SIGKILL (bound 300)
 *   interrupt       the real CLI mid-stream, interrupt() to its result
 *   keepalive end   a peer that never answers a ping, open to close (bound: 1000 dead)
 *   watchdog end    a handler that never returns, send to close (bound: 4 x 100 write bound)
 *   shutdown        forge (spawned, as a person runs it) stopped while its seat's CLI waits on a
 *                   background job: SIGTERM to exit (bound: the CLI's 5 s grace after EOF)
 * The socket figures run an in-process server with the tests' shortened clocks; the shutdown
 * runs at most 3 times (each takes the grace). --skip-shutdown leaves it out.
 */
import { UpdateStream } from "../../server/workspace/stream.ts";
import { encodeLine, StdinWriter } from "../../server/workspace/claude/stdin_writer.ts";
import { ClaudeProcess } from "../../server/workspace/claude/process.ts";
import { startHarness } from "../../tests/claude_support.ts";
import type { CliFrame, JsonObject } from "../../server/workspace/claude/types.ts";
import { SAMPLE_CONFIG, testServer } from "../../tests/harness.ts";
import { RawSocket } from "../../tests/raw_socket.ts";
import { chatOf, command, seatWorld, updateOf } from "../../tests/seats_harness.ts";
import { fakePreview } from "../../tests/registry_fakes.ts";
import { spread } from "./support/stats.ts";
import { booleanFlag, numberFlag } from "./support/flags.ts";

const RUNS = numberFlag("--runs", 5);
const figures: { name: string; ms: number[]; bound: string }[] = [];
const record = (name: string, bound: string) => {
  const f = { name, ms: [] as number[], bound };
  figures.push(f);
  return f.ms;
};
const appendFrame = (i: number): CliFrame => ({
  type: "system",
  subtype: "thinking_tokens",
  estimated_tokens: i,
  estimated_tokens_delta: 1,
  uuid: `u${i}`,
});
const chat = (i: number) => ({
  name: "chat_appended" as const,
  fields: { key: { org: "A", project: "p", label: "lead" }, msg: appendFrame(i) },
});

async function flushFigures() {
  const quiet = record("flush: quiet", "16 after the last append");
  const ceiling = record("flush: ceiling", "100 after the first append");
  const timer = record("timer alone", "16");
  for (let r = 0; r < RUNS; r++) {
    const s = new UpdateStream();
    let t0 = 0;
    const out = new Promise<number>((res) => s.subscribe(() => res(performance.now() - t0)));
    s.emit(chat(1));
    t0 = performance.now();
    quiet.push(await out);
    const steady = new UpdateStream();
    const first = performance.now();
    let done = false;
    const left = new Promise<number>((res) =>
      steady.subscribe(() => (done = true, res(performance.now() - first)))
    );
    for (let i = 0; !done; i++) {
      steady.emit(chat(i));
      await new Promise((r) => setTimeout(r, 5));
    }
    ceiling.push(await left);
    const a = performance.now();
    await new Promise((r) => setTimeout(r, 16));
    timer.push(performance.now() - a);
  }
}

async function stdinFigure() {
  const queued = record("stdin queue: 64 x 16 KiB", "the encoding alone, below");
  const encoding = record("stdin floor: encoding", "-");
  const big = "x".repeat(16 * 1024);
  for (let r = 0; r < RUNS; r++) {
    const child = new Deno.Command("sleep", { args: ["30"], stdin: "piped" }).spawn();
    const w = new StdinWriter(child.stdin);
    let t0 = performance.now();
    for (let i = 0; i < 64; i++) w.send({ type: "user", i, big });
    queued.push(performance.now() - t0);
    t0 = performance.now();
    for (let i = 0; i < 64; i++) encodeLine({ type: "user", i, big });
    encoding.push(performance.now() - t0);
    child.kill("SIGKILL");
    await child.status;
    await w.close();
  }
}

async function cliFigures() {
  const busy = record("close: busy CLI", "500 grace, then SIGTERM");
  const kill = record("close: kill", "100 + 200 graces, then SIGKILL");
  const interrupt = record("interrupt: to the result", "-");
  const slow = { content: [{ type: "text" as const, text: "y".repeat(400) }], chunk_chars: 4 };
  await using h = await startHarness({
    replies: Array.from({ length: RUNS * 2 }, () => ({ ...slow, chunk_delay_ms: 100 })),
  });
  const isDelta = (f: CliFrame) =>
    f.type === "stream_event" && (f.event as JsonObject).type === "content_block_delta";
  for (let r = 0; r < RUNS; r++) {
    const a = h.spawn({ closeGraceMs: 500 });
    a.proc.sendUserMessage("slow");
    await a.log.waitFor(isDelta, "a delta");
    let t0 = performance.now();
    await a.proc.close();
    busy.push(performance.now() - t0);
    const b = h.spawn();
    await b.proc.initialize();
    b.proc.sendUserMessage("slow");
    await b.log.waitFor(isDelta, "a delta");
    t0 = performance.now();
    await b.proc.interrupt();
    await b.log.next("result");
    interrupt.push(performance.now() - t0);
    await b.proc.close();
    const stubborn = ClaudeProcess.spawn({
      bin: "sh",
      args: ["-c", "trap '' TERM; while :; do sleep 0.05; done"],
      cwd: ".",
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      closeGraceMs: 100,
      termGraceMs: 200,
    });
    t0 = performance.now();
    await stubborn.close();
    kill.push(performance.now() - t0);
  }
}

async function socketFigures() {
  const keepalive = record("keepalive end", "1000 after the first ping (sent at 250)");
  const watchdog = record("watchdog end", "4 x 100 write bound, from the last write");
  for (let r = 0; r < RUNS; r++) {
    {
      await using t = await testServer(null, { timers: { pingDeadMs: 1000 } });
      const raw = await RawSocket.open(t.server.addr.port, { answerPings: false });
      const t0 = performance.now();
      await raw.closed();
      keepalive.push(performance.now() - t0);
      raw.close();
    }
    const stuck = fakePreview("stuck", () => new Promise<void>(() => {}));
    await using t = await testServer(SAMPLE_CONFIG, {
      extra: [stuck],
      timers: { writeBoundMs: 100, sampleMs: 20 },
    });
    const c = await t.ready();
    const t0 = performance.now();
    c.send({
      kind: "voice_preview",
      key: { org: "Acme", project: "proj", label: "lead" },
      voice: null,
    });
    await c.closed();
    watchdog.push(performance.now() - t0);
  }
}

async function shutdownFigure() {
  const stop = record("shutdown: busy CLI", "5000 grace after EOF, then SIGTERM");
  await using world = await seatWorld([{ name: "alpha" }]);
  const lead = world.lead("alpha");
  for (let r = 0; r < Math.min(RUNS, 3); r++) {
    const forge = await world.startForge();
    const c = await forge.ready();
    c.send({ kind: "subscribe", what: { session: lead }, answering: true });
    const snap = await c.next((m) => m.kind === "snapshot");
    if ((snap.data as { header: { session_id: string | null } }).header.session_id === null) {
      await c.next((m) => !!updateOf(m, "connected"), 60_000);
    }
    command(c, "prompt", { key: lead, text: "[[script:bg]] start a job", attachments: [] });
    await c.next((m) => chatOf(m)?.type === "result", 60_000);
    const t0 = performance.now();
    await forge.stop();
    stop.push(performance.now() - t0);
  }
}

await flushFigures();
await stdinFigure();
if (!booleanFlag("--skip-cli")) await cliFigures();
if (!booleanFlag("--skip-socket")) await socketFigures();
if (!booleanFlag("--skip-shutdown")) await shutdownFigure();
console.log(`lifecycle timings, ${RUNS} runs, ${navigator.hardwareConcurrency} cores; ms:`);
for (const f of figures) {
  console.log(`  ${f.name.padEnd(28)} ${spread(f.ms, 1).padEnd(26)} bound: ${f.bound}`);
}
