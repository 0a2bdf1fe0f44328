/**
 * fold_cost's latency arms' instruments: the client workers (one per core, none on the server's
 * thread) and the threads' own counters (run and run-queue wait, /proc schedstat).
 */
export type SeatKey = { org: string; project: string; label: string };
export type Sample = [uuid: string, at: number, span: number];

/** `clients` clients of `url` spread over one worker per core, none on the server's thread;
 * subscribed to `seat`, or a bare relay's (null). `samples()` collects and ends them. */
export async function clientWorkers(url: string, clients: number, seat: SeatKey | null) {
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

/** Time run and time spent runnable but waiting for a core, ns: the server's thread (this
 * process's main thread) and the clients' worker threads, summed. */
export type Spent = {
  serverRun: number;
  serverWait: number;
  clientRun: number;
  clientWait: number;
};

/** This process's counters now, by thread id (/proc/self/task/<tid>/schedstat). */
export function threadTimes(): Map<string, [number, number]> {
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
  return now;
}

/** What the threads spent between two readings of `threadTimes` (a worker that ended between
 * them is not counted: read `after` before the clients end). */
export function spentBetween(
  before: Map<string, [number, number]>,
  after: Map<string, [number, number]>,
): Spent {
  const spent: Spent = { serverRun: 0, serverWait: 0, clientRun: 0, clientWait: 0 };
  for (const [tid, [r, w]] of after) {
    const [r0, w0] = before.get(tid) ?? [0, 0];
    if (tid === String(Deno.pid)) {
      spent.serverRun += r - r0;
      spent.serverWait += w - w0;
    } else {
      spent.clientRun += r - r0;
      spent.clientWait += w - w0;
    }
  }
  return spent;
}

export function addSpent(a: Spent, b: Spent): Spent {
  return {
    serverRun: a.serverRun + b.serverRun,
    serverWait: a.serverWait + b.serverWait,
    clientRun: a.clientRun + b.clientRun,
    clientWait: a.clientWait + b.clientWait,
  };
}

export function spentSentence(s: Spent): string {
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  return `server thread ran ${ms(s.serverRun)} ms, waited for a core ${ms(s.serverWait)} ms; ` +
    `clients' threads ran ${ms(s.clientRun)} ms, waited for a core ${ms(s.clientWait)} ms`;
}

/** A process's CPU (user + system) in ms from /proc/<pid>/stat's clock ticks (10 ms grain). */
export function processCpuMs(pid: number | null): number {
  if (pid === null) return 0;
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
