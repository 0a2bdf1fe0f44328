/**
 * fold_cost's second part: latency from a CLI stdout line to 1, 10 and 50 subscribed clients,
 * with forge in this process (see fold_cost.ts), the server's own share of it, and where the
 * threads' time went while the arm ran (their scheduler run and run-queue wait, /proc schedstat).
 */
import { memoryLogger } from "../../../server/log.ts";
import { startServer } from "../../../server/server.ts";
import { EventQueue } from "../../../server/workspace/claude/event_queue.ts";
import { appendKind } from "../../../server/workspace/stream_fold.ts";
import type { CliFrame } from "../../../protocol/mod.ts";
import { ForgeClient } from "../../client_lib.ts";
import { breakdown } from "./seat_breakdown.ts";
import { frameKind, prompt, settle, sinceRead } from "./seat_fixtures.ts";
import { bareRelay } from "./seat_bare.ts";

type SeatKey = { org: string; project: string; label: string };
const seat: SeatKey = { org: "Bench", project: "long", label: "lead" };

/** When each CLI frame (by uuid) was parsed off stdout, stamped in the driver's queue, and the
 * order they came in (a folded frame of span n stands for the n appends read up to its uuid). */
const readAt = new Map<string, number>();
const readOrder: string[] = [];
const readIndex = new Map<string, number>();
/** Each single frame's CLI type (and subtype), to name the late ones. */
const frameType = new Map<string, string>();
const now = () => performance.timeOrigin + performance.now();

export async function latencyArms(
  dir: string,
  turns: number,
  longTurns: number,
  apiUrl: string,
  clientCounts: number[],
) {
  const push = EventQueue.prototype.push;
  EventQueue.prototype.push = function (item: unknown) {
    const frame = (item as { kind?: string; frame?: { uuid?: unknown } }).frame;
    if (typeof frame?.uuid === "string") {
      readAt.set(frame.uuid, now());
      readIndex.set(frame.uuid, readOrder.push(frame.uuid) - 1);
    }
    return push.call(this, item as never);
  };
  const server = await startServer({
    configPath: `${dir}/forge.toml`,
    port: 0,
    log: memoryLogger(),
  });
  // The server's own share: when the fan-out handed a frame to every socket (this listener runs
  // after the server's, on the same update), so the rest of a latency is the transport and the
  // clients' threads.
  const handedAt = new Map<string, number>();
  // A token append the batch held alone crosses with span 1 and no fold, but it is a held run
  // all the same (up to 16 ms by design, catalogue 3.6): it is reported with the runs, as the
  // bare relay (which does not send appends) leaves it out of its single frames.
  const heldAlone = new Set<string>();
  server.workspace.stream.subscribe((u) => {
    const msg = u.update.name === "chat_appended"
      ? (u.update.fields?.msg as CliFrame | undefined)
      : undefined;
    if (typeof msg?.uuid !== "string" || u.span !== 1) return;
    if (appendKind(msg) !== null) {
      heldAlone.add(msg.uuid);
      return;
    }
    handedAt.set(msg.uuid, now());
    frameType.set(msg.uuid, frameKind(msg));
  });
  // The driver sends the prompts but is not subscribed to the seat while the arms run: it
  // shares the server's thread, and parsing every frame there would be the bench's cost, not
  // forge's. A turn's end is seen by a listener on the server's own stream instead.
  let turnEnded = () => {};
  server.workspace.stream.subscribe((u) => {
    const msg = u.update.name === "chat_appended"
      ? (u.update.fields?.msg as { type?: unknown } | undefined)
      : undefined;
    if (msg?.type === "result") turnEnded();
  });
  const cliPid = () => (server.workspace.seat(seat) as { pid?: number | null } | null)?.pid ?? null;
  const driver = await ForgeClient.connect(server.url);
  const bare = await bareRelay(apiUrl, dir, readAt, frameType);
  try {
    await driver.next((m) => m.kind === "settings");
    for (const clients of clientCounts) {
      const workers = await clientWorkers(server.url, clients, seat);
      readAt.clear();
      handedAt.clear();
      heldAlone.clear();
      readOrder.length = 0;
      readIndex.clear();
      const before = threadTimes();
      const cli0 = processCpuMs(cliPid());
      const wall0 = performance.now();
      for (let i = 0; i < turns; i++) {
        const ended = new Promise<void>((resolve) => turnEnded = resolve);
        driver.send(prompt(`[[script:stream]] latency ${i}`));
        await ended;
      }
      await settle(driver);
      const spent = threadTimes(before);
      const cliMs = processCpuMs(cliPid()) - cli0;
      const wall = performance.now() - wall0;
      const samples = await workers.samples();
      const plain: number[] = [];
      const perFrame = new Map<string, number[]>();
      const fromLast: number[] = [];
      const fromFirst: number[] = [];
      for (const [uuid, at, span] of samples) {
        const read = readAt.get(uuid);
        if (read === undefined) continue;
        if (span === 1 && !heldAlone.has(uuid)) {
          plain.push(at - read);
          perFrame.set(uuid, [...perFrame.get(uuid) ?? [], at - read]);
          continue;
        }
        fromLast.push(at - read);
        const first = readOrder[readIndex.get(uuid)! - (span - 1)];
        fromFirst.push(at - readAt.get(first)!);
      }
      const handed = sinceRead(readAt, handedAt);
      console.log(
        `latency ${String(clients).padStart(2)} client(s): single frames ${q(plain)}\n` +
          `   of which the server's (read to handed to every socket) ${q(handed)}\n` +
          `   ${lateFrames(perFrame)}\n` +
          `   held runs of token appends (a lone one included): from the run's last line ${
            q(fromLast)
          }, ` +
          `from its first ${q(fromFirst)}\n` +
          `   over the arm's ${wall.toFixed(0)} ms: ${spent}; the CLI's process ran ` +
          `${cliMs.toFixed(0)} ms`,
      );
      // The pair's other arm: the same turns through a bare relay (seat_bare.ts).
      const bareClients = await clientWorkers(bare.url, clients, null);
      const { atClients, handed: bareHanded } = await bare.turns(
        turns,
        () => bareClients.samples(),
      );
      const barePerFrame = new Map<string, number[]>();
      for (const [uuid, ms] of atClients) {
        barePerFrame.set(uuid, [...barePerFrame.get(uuid) ?? [], ms]);
      }
      console.log(
        `   bare relay to the same clients (no forge, token appends not sent): single frames ` +
          `${q(atClients.map(([, ms]) => ms))}\n` +
          `      of which the relay's (read to handed to every socket) ${q(bareHanded)}\n` +
          `      ${lateFrames(barePerFrame)}`,
      );
    }
    driver.send({ kind: "subscribe", what: { session: seat } });
    await driver.next((m) => m.kind === "snapshot");
    await breakdown(server, driver, longTurns);
  } finally {
    EventQueue.prototype.push = push;
    await bare.close();
    await driver.close();
    await server.stop();
  }
}

type Sample = [uuid: string, at: number, span: number];

/** `clients` clients of `url` spread over one worker per core, none on the server's thread;
 * subscribed to `seat`, or a bare relay's (null). `samples()` collects and ends them. */
async function clientWorkers(url: string, clients: number, seat: SeatKey | null) {
  const spread = Math.min(clients, navigator.hardwareConcurrency);
  const workers = Array.from({ length: spread }, (_, w) => {
    const worker = new Worker(new URL("./seat_clients.ts", import.meta.url), { type: "module" });
    const reply = (kind: string) =>
      new Promise<{ kind: string; samples?: Sample[] }>((resolve) => {
        worker.onmessage = (e) => e.data.kind === kind && resolve(e.data);
      });
    const n = Math.floor(clients / spread) + (w < clients % spread ? 1 : 0);
    return { worker, reply, n };
  });
  await Promise.all(workers.map(({ worker, reply, n }) => {
    const ready = reply("ready");
    worker.postMessage({ kind: "connect", url, clients: n, seat });
    return ready;
  }));
  return {
    async samples(): Promise<Sample[]> {
      return (await Promise.all(workers.map(({ worker, reply }) => {
        const done = reply("samples");
        worker.postMessage({ kind: "report" });
        return done.then((d) => {
          worker.terminate();
          return d.samples ?? [];
        });
      }))).flat();
    },
  };
}

/**
 * The server's thread (this process's main thread) and the clients' worker threads: time run
 * and time spent runnable but waiting for a core (/proc/self/task/<tid>/schedstat, ns). Called
 * without `since` it answers the counters; with them, what was spent since, as a sentence.
 */
function threadTimes(): Map<string, [number, number]>;
function threadTimes(since: Map<string, [number, number]>): string;
function threadTimes(
  since?: Map<string, [number, number]>,
): Map<string, [number, number]> | string {
  const now = new Map<string, [number, number]>();
  for (const t of Deno.readDirSync("/proc/self/task")) {
    try {
      const name = Deno.readTextFileSync(`/proc/self/task/${t.name}/comm`).trim();
      if (t.name !== String(Deno.pid) && !name.startsWith("worker-")) continue;
      const [run, wait] = Deno.readTextFileSync(`/proc/self/task/${t.name}/schedstat`)
        .split(" ").map(Number);
      now.set(t.name, [run, wait]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  if (!since) return now;
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  const sum = (server: boolean) => {
    let run = 0;
    let wait = 0;
    for (const [tid, [r, w]] of now) {
      if ((tid === String(Deno.pid)) !== server) continue;
      const [r0, w0] = since.get(tid) ?? [0, 0];
      run += r - r0;
      wait += w - w0;
    }
    return `ran ${ms(run)} ms, waited for a core ${ms(wait)} ms`;
  };
  return `server thread ${sum(true)}; clients' threads ${sum(false)}`;
}

/** A process's CPU (user + system) in ms from /proc/<pid>/stat's clock ticks (10 ms grain). */
function processCpuMs(pid: number | null): number {
  if (pid === null) return 0;
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * How the late samples fall over frames: a frame late for most of its clients at once was held
 * up before any client ran (the server, or the cores taken by others), not by the fan-out order.
 */
function lateFrames(perFrame: Map<string, number[]>): string {
  const late: [string, number][] = [];
  for (const [uuid, xs] of perFrame) {
    const median = [...xs].sort((a, b) => a - b)[xs.length >> 1];
    if (median >= 5) late.push([frameType.get(uuid) ?? "?", median]);
  }
  late.sort((a, b) => b[1] - a[1]);
  const shown = late.slice(0, 8).map(([type, ms]) => `${type} ${ms.toFixed(1)} ms`);
  if (late.length > shown.length) shown.push(`${late.length - shown.length} more`);
  return `frames whose median client waited 5 ms or more: ${late.length} of ${perFrame.size}` +
    (late.length ? ` (worst first: ${shown.join(", ")})` : "");
}

function q(xs: number[]): string {
  if (xs.length === 0) return "none";
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (n=${s.length})`;
}
