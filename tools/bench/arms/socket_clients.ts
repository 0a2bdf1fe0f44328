/// <reference lib="deno.worker" />
/**
 * A Worker holding some of the socket bench's clients, so their parsing runs on a thread of its
 * own and not on the server's. Each client dials, subscribes to home, waits for the
 * snapshot, then counts every stamped update: latency is the absolute clock at parse minus the
 * stamp the server took when it accepted the update (`performance.timeOrigin + now()` is one clock
 * across threads of a process). A kind-3 frame is gunzipped and parsed like text, as a client does.
 */
import { gunzipSync } from "node:zlib";

export interface ClientsJob {
  url: string;
  clients: number;
  /** Stamped frames each client waits for before it reports. */
  expect: number;
  deflate: boolean;
  /** Post `{ got: latency }` for every stamped frame (the big-frame arm paces on it). */
  progress?: boolean;
}

export interface ClientsReport {
  latencies: number[];
  /** Absolute time the last expected frame was parsed. */
  last: number;
  frames: number;
  bytes: number;
}

const now = () => performance.timeOrigin + performance.now();

/** A client that waits this long with no stamped update fails rather than hangs the bench. */
const STALL_MS = 60_000;

/**
 * The stamp `t:<abs ms>` a bench update carries in its message, or null: every arm sends it as a
 * `fatal_error` update's message (socket_targets.ts), the one home update whose text rides as
 * given.
 */
export function stampOf(m: { update?: { fatal_error?: { message?: string } } }): number | null {
  const text = m.update?.fatal_error?.message;
  if (!text?.startsWith("t:")) return null;
  const bar = text.indexOf("|");
  return Number(text.slice(2, bar > 0 ? bar : undefined));
}

async function client(job: ClientsJob, report: ClientsReport, ready: () => void): Promise<void> {
  const ws = new WebSocket(job.deflate ? `${job.url}?deflate=1` : job.url);
  ws.binaryType = "arraybuffer";
  let seen = 0;
  let subscribed = false;
  const done = Promise.withResolvers<void>();
  let stall: ReturnType<typeof setTimeout> | undefined;
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(() => {
      ws.close();
      done.reject(
        new Error(
          `a client of ${job.url} saw ${seen} of ${job.expect} stamped updates, none in the ` +
            `last ${STALL_MS / 1000} s`,
        ),
      );
    }, STALL_MS);
  };
  ws.onopen = () => ws.send(JSON.stringify({ kind: "subscribe", what: "home" }));
  ws.onerror = () => done.reject(new Error(`client of ${job.url} failed`));
  ws.onmessage = (e) => {
    let text: string;
    if (typeof e.data === "string") text = e.data;
    else {
      const bytes = new Uint8Array(e.data as ArrayBuffer);
      if (bytes[0] !== 3) return;
      text = gunzipSync(bytes.subarray(1)).toString();
    }
    const m = JSON.parse(text);
    if (!subscribed) {
      if (m.kind === "snapshot") {
        subscribed = true;
        watch();
        ready();
      }
      return;
    }
    const t = stampOf(m);
    if (t === null) return;
    const at = now();
    report.latencies.push(at - t);
    if (job.progress) self.postMessage({ got: at - t });
    report.frames++;
    report.bytes += typeof e.data === "string" ? text.length : (e.data as ArrayBuffer).byteLength;
    watch();
    if (++seen === job.expect) {
      report.last = Math.max(report.last, at);
      ws.close();
      done.resolve();
    }
  };
  try {
    await done.promise;
  } finally {
    clearTimeout(stall);
  }
}

self.onmessage = async (e: MessageEvent<ClientsJob>) => {
  const job = e.data;
  const report: ClientsReport = { latencies: [], last: 0, frames: 0, bytes: 0 };
  let readyCount = 0;
  const all = Array.from(
    { length: job.clients },
    () =>
      client(job, report, () => {
        if (++readyCount === job.clients) self.postMessage({ ready: true });
      }),
  );
  try {
    await Promise.all(all);
    self.postMessage({ report });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
