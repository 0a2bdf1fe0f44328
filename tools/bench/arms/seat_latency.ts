/**
 * fold_cost's second part: latency from a CLI stdout line to 1, 10 and 50 subscribed clients,
 * with forge in this process (see fold_cost.ts), the server's own share of it, and where the
 * threads' time went while the arm ran (their scheduler run and run-queue wait, /proc schedstat).
 * Each client count is a pair run in halves, forge, bare, bare, forge, so neither arm has the
 * machine's quieter or busier end of the pair to itself.
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
import { goal } from "../support/goals.ts";
import {
  addSpent,
  clientWorkers,
  processCpuMs,
  type SeatKey,
  type Spent,
  spentBetween,
  spentSentence,
  threadTimes,
} from "./seat_threads.ts";

const seat: SeatKey = { org: "Bench", project: "long", label: "lead" };

/** When each CLI frame (by uuid) was parsed off stdout, stamped in the driver's queue, and the
 * order they came in (a folded frame of span n stands for the n appends read up to its uuid). */
const readAt = new Map<string, number>();
const readOrder: string[] = [];
const readIndex = new Map<string, number>();
/** Each single frame's CLI type (and subtype), to name the late ones. */
const frameType = new Map<string, string>();
const now = () => performance.timeOrigin + performance.now();

/** One forge half's figures: single frames' latency at each client and the server's share, by
 * uuid; held runs from their last and first line; the threads' and the CLI's time. */
type ForgeHalf = {
  perFrame: Map<string, number[]>;
  handed: Map<string, number>;
  fromLast: number[];
  fromFirst: number[];
  spent: Spent;
  cliMs: number;
  wallMs: number;
};
/** One bare half's figures: single frames at each client and the relay's share, by uuid. */
type BareHalf = { perFrame: Map<string, number[]>; handed: Map<string, number> };

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
  // all the same (up to 16 ms by design: the original's flush interval): it is reported with the
  // runs, as the bare relay (which does not send appends) leaves it out of its single frames.
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

  /** `n` turns through forge to `clients` fresh clients. */
  async function forgeHalf(clients: number, n: number): Promise<ForgeHalf> {
    const workers = await clientWorkers(server.url, clients, seat);
    readAt.clear();
    handedAt.clear();
    heldAlone.clear();
    readOrder.length = 0;
    readIndex.clear();
    const before = threadTimes();
    const cli0 = processCpuMs(cliPid());
    const wall0 = performance.now();
    for (let i = 0; i < n; i++) {
      const ended = new Promise<void>((resolve) => turnEnded = resolve);
      driver.send(prompt(`[[script:stream]] latency ${i}`));
      await ended;
    }
    await settle(driver);
    const spent = spentBetween(before, threadTimes());
    const cliMs = processCpuMs(cliPid()) - cli0;
    const wallMs = performance.now() - wall0;
    const half: ForgeHalf = {
      perFrame: new Map(),
      handed: sinceRead(readAt, handedAt),
      fromLast: [],
      fromFirst: [],
      spent,
      cliMs,
      wallMs,
    };
    for (const [uuid, at, span] of await workers.samples()) {
      const read = readAt.get(uuid);
      if (read === undefined) continue;
      if (span === 1 && !heldAlone.has(uuid)) {
        const xs = half.perFrame.get(uuid) ?? [];
        xs.push(at - read);
        half.perFrame.set(uuid, xs);
        continue;
      }
      half.fromLast.push(at - read);
      const first = readOrder[readIndex.get(uuid)! - (span - 1)];
      half.fromFirst.push(at - readAt.get(first)!);
    }
    return half;
  }

  /** The pair's other arm: `n` turns through a bare relay (seat_bare.ts) to as many clients. */
  async function bareHalf(clients: number, n: number): Promise<BareHalf> {
    const workers = await clientWorkers(bare.url, clients, null);
    return await bare.turns(n, () => workers.samples());
  }

  try {
    await driver.next((m) => m.kind === "settings");
    console.log(
      `latency: each client count runs ${turns} turns an arm, in halves forge, bare, bare, forge`,
    );
    const first = Math.ceil(turns / 2);
    const second = turns - first;
    for (const clients of clientCounts) {
      const f1 = await forgeHalf(clients, first);
      const b1 = await bareHalf(clients, first);
      const b2 = await bareHalf(clients, second);
      const f2 = await forgeHalf(clients, second);
      const forge = joinForge(f1, f2);
      const relay = {
        perFrame: joined(b1.perFrame, b2.perFrame),
        handed: joined(b1.handed, b2.handed),
      };
      console.log(
        `latency ${String(clients).padStart(2)} client(s): single frames ${
          q(flat(forge.perFrame))
        }\n` +
          `   of which the server's (read to handed to every socket) ${
            q([...forge.handed.values()])
          }\n` +
          `   ${lateFrames(forge.perFrame, forge.handed, "server")}\n` +
          `   held runs of token appends (a lone one included): from the run's last line ${
            q(forge.fromLast)
          }, from its first ${q(forge.fromFirst)}\n` +
          `   over the arm's ${forge.wallMs.toFixed(0)} ms: ${spentSentence(forge.spent)}; ` +
          `the CLI's process ran ${forge.cliMs.toFixed(0)} ms`,
      );
      console.log(
        `   bare relay to the same clients (no forge, token appends not sent): single frames ` +
          `${q(flat(relay.perFrame))}\n` +
          `      of which the relay's (read to handed to every socket) ${
            q([...relay.handed.values()])
          }\n` +
          `      ${lateFrames(relay.perFrame, relay.handed, "relay")}`,
      );
      if (clients === Math.max(...clientCounts)) {
        const [mine, floor] = [p99(flat(forge.perFrame)), p99(flat(relay.perFrame))];
        goal(
          `CLI line to ${clients} clients, p99 of single frames`,
          mine <= floor + 1,
          `forge ${mine.toFixed(2)} ms, the bare relay (the floor) ${floor.toFixed(2)} ms ` +
            `(${(mine - floor).toFixed(2)} ms over it), the same turns in halves`,
          "<= the bare relay's p99 + 1 ms",
        );
      }
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

/** The two forge halves of a pair as one arm. */
function joinForge(a: ForgeHalf, b: ForgeHalf): ForgeHalf {
  return {
    perFrame: joined(a.perFrame, b.perFrame),
    handed: joined(a.handed, b.handed),
    fromLast: [...a.fromLast, ...b.fromLast],
    fromFirst: [...a.fromFirst, ...b.fromFirst],
    spent: addSpent(a.spent, b.spent),
    cliMs: a.cliMs + b.cliMs,
    wallMs: a.wallMs + b.wallMs,
  };
}

/** Two halves' maps by uuid as one (each frame has its own uuid: no key is in both). */
function joined<T>(a: Map<string, T>, b: Map<string, T>): Map<string, T> {
  return new Map([...a, ...b]);
}

function flat(perFrame: Map<string, number[]>): number[] {
  return [...perFrame.values()].flat();
}

/**
 * How the late samples fall over frames: a frame late for most of its clients at once was held
 * up before any client ran (the server, or the cores taken by others), not by the fan-out order.
 * Each is named with its own `who` share (read to handed to every socket), which says which.
 */
function lateFrames(
  perFrame: Map<string, number[]>,
  share: Map<string, number>,
  who: string,
): string {
  const late: [uuid: string, median: number][] = [];
  for (const [uuid, xs] of perFrame) {
    const median = [...xs].sort((a, b) => a - b)[xs.length >> 1];
    if (median >= 5) late.push([uuid, median]);
  }
  late.sort((a, b) => b[1] - a[1]);
  const shown = late.slice(0, 8).map(([uuid, ms]) => {
    const own = share.get(uuid);
    return `${frameType.get(uuid) ?? "?"} ${ms.toFixed(1)} ms (${who} ${
      own === undefined ? "?" : own.toFixed(1)
    } ms)`;
  });
  if (late.length > shown.length) shown.push(`${late.length - shown.length} more`);
  return `frames whose median client waited 5 ms or more: ${late.length} of ${perFrame.size}` +
    (late.length ? ` (worst first: ${shown.join(", ")})` : "");
}

/** The p99 `q` prints. */
function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.99 * s.length))];
}

function q(xs: number[]): string {
  if (xs.length === 0) return "none";
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (n=${s.length})`;
}
