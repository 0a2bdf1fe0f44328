/**
 * What a seat costs the server, with the real `claude` CLI against the fake API:
 *
 * 1. CPU per request: forge runs as its own process (`deno run -A main.ts`, so its /proc walks
 *    run) holding one seat with a long real conversation built by real turns; the arm prices a
 *    `subscribe` of that seat (its tree a repository with work in it) and a `more` of the turns
 *    above the snapshot (from the window, in memory) in the process's own CPU time (its threads'
 *    scheduler ns, /proc/<pid>/task/<tid>/schedstat) in paired arms: an idle window, then the
 *    requests, `--pairs` times; median and range over the pairs. Then forge restarts, the lead resumes its session
 *    seeded with its newest turns, and a `more` above them is priced again: read from the
 *    transcript on disk. Every arm prints the bytes and turns it moved.
 * 2. Latency from a CLI stdout line to a subscribed client, p50/p99, with 1, 10 and 50 clients:
 *    forge runs in this process (the fake API in its own, as the real one is remote; the prompt
 *    driver is not subscribed while the arms run), each stdout line stamped as the driver's pipe
 *    reader parses it (the same task that read the chunk off the pipe: the lines of one chunk
 *    are parsed back to back, no other task between); the clients spread over one worker per
 *    core and stamp each frame they parse. Frames the batch holds (token appends) are reported
 *    apart from the rest. A bare relay of the same CLI's lines is the pair's other arm; each
 *    client count runs in halves, forge, bare, bare, forge (arms/seat_latency.ts). Goal: at the
 *    largest count (50), forge's p99 at most the bare relay's p99 + 1 ms.
 *
 *   tools/deno.sh run -A tools/bench/fold_cost.ts [--turns 40] [--requests 10] [--pairs 7]
 *     [--latency-turns 16] [--clients 1,10,50]
 *
 * Forge runs under the V8 flags its launcher gives it (tools/permissions.ts SERVER_V8_FLAGS) in
 * both parts: the forge process is started with them, and this process starts itself again with
 * them for the in-process arms. To run it under flags of your own (`--trace-gc`, `--cpu-prof`),
 * set FORGE_BENCH_OWN_FLAGS=1 and pass them to `deno run`.
 */
import { parseArgs } from "node:util";
import { SERVER_V8_FLAGS } from "../permissions.ts";
import { startApi } from "../../tests/seats_harness.ts";
import { ForgeClient } from "../client_lib.ts";
import {
  cliVersion,
  forgeArgs,
  isChat,
  listening,
  prompt,
  seatRepo,
  settle,
} from "./arms/seat_fixtures.ts";
import { latencyArms } from "./arms/seat_latency.ts";
import { finishGoals } from "./support/goals.ts";
import { cpuOver as cpuWhile, threadsNs } from "./support/cpu.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const seat = { org: "Bench", project: "long", label: "lead" };

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    strict: false,
    options: {
      turns: { type: "string", default: "40" },
      requests: { type: "string", default: "10" },
      // 16 turns give each arm about 256 single frames. A p99 over 64 (four turns) was the
      // worst frame's, since one frame is 50 samples that rise and fall together.
      "latency-turns": { type: "string", default: "16" },
      clients: { type: "string", default: "1,10,50" },
      pairs: { type: "string", default: "7" },
      runs: { type: "string" },
    },
  });
  const pairs = Number(values.pairs);
  const turns = Number(values.turns);
  const requests = Number(values.requests);
  const latencyTurns = Number(values["latency-turns"]);
  // A turn like a working session's: thinking, a Bash call (read-only: it runs unasked), then a
  // long answer; the latency turns stream a thinking block and text at a steady pace.
  // The fake API is a remote service to forge: it runs as its own process, so serving the
  // CLI's requests never takes turns on the thread of the in-process server the latency arms
  // time.
  const api = await startApi(`${REPO}fixtures/seats/bench_script.json`);
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-fold-bench-" }));
  try {
    const toml = await Deno.readTextFile(`${REPO}fixtures/seats/bench.toml`);
    await Deno.writeTextFile(
      `${dir}/forge.toml`,
      toml.replaceAll("@API@", api.url).replaceAll("@DIR@", dir),
    );
    console.log(
      `claude ${await cliVersion()}; ${Deno.build.os} ${navigator.hardwareConcurrency} cores`,
    );
    // The seat's tree is a repository with work in it, as a working seat's is: the subscribe
    // carries its work, git, diff and file_index rows.
    await seatRepo(`${dir}/long`);
    await cpuArms(dir, turns, requests, pairs);
    const clients = String(values.clients).split(",").map(Number);
    if (latencyTurns > 0) await latencyArms(dir, latencyTurns, turns, api.url, clients);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
  finishGoals();
}

// ---- 1. CPU per request -------------------------------------------------------------------

async function cpuArms(dir: string, turns: number, requests: number, pairs: number) {
  const first = await startForge(dir);
  const { child, c } = first;
  try {
    c.send({ kind: "subscribe", what: { session: seat }, answering: true });
    await c.next((m) => m.kind === "snapshot");
    const t0 = performance.now();
    for (let i = 0; i < turns; i++) {
      c.send(prompt(`[[script:turn]] turn ${i}`));
      await c.next((m) => isChat(m, "result"), 60_000);
    }
    console.log(`built ${turns} real turns in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    c.send({ kind: "unsubscribe", what: { session: seat } });
    await settle(c);

    let cursor: string | null = null;
    await pairedArms("subscribe", child.pid, pairs, requests, async () => {
      c.send({ kind: "subscribe", what: { session: seat } });
      const snap = await c.next((m) => m.kind === "snapshot", 60_000);
      const data = snap.data as {
        conversation: { turns: unknown[]; cursor: string | null };
        work?: { gate?: string; changed?: number };
      };
      cursor = data.conversation.cursor;
      c.send({ kind: "unsubscribe", what: { session: seat } });
      await settle(c);
      return {
        bytes: JSON.stringify(snap).length,
        what: `${data.conversation.turns.length} turns, work ${data.work?.gate} ` +
          `${data.work?.changed} changed`,
      };
    });
    // Above the window's floor: the turns above the snapshot, from memory.
    await moreArms("more (window)", child.pid, c, cursor, pairs, requests);
  } finally {
    await first.stop();
  }
  // A restart: the lead resumes its session, seeded with its newest turns; the page above them
  // is read from the transcript on disk.
  const second = await startForge(dir);
  try {
    const c2 = second.c;
    c2.send({ kind: "subscribe", what: { session: seat } });
    let snap = await c2.next((m) => m.kind === "snapshot", 60_000);
    const header = (snap.data as { header: { available_models: unknown[] } }).header;
    if (header.available_models.length === 0) {
      await c2.next((m) => !!(m.update as { connected?: unknown } | undefined)?.connected, 60_000);
      c2.send({ kind: "subscribe", what: { session: seat } });
      snap = await c2.next((m) => m.kind === "snapshot", 60_000);
    }
    const conv = (snap.data as { conversation: { cursor: string | null } }).conversation;
    await moreArms("more (disk)", second.child.pid, c2, conv.cursor, pairs, requests);
  } finally {
    await second.stop();
  }
}

/** forge as its own process (`deno run -A main.ts`, so its /proc walks run), and a client. */
async function startForge(dir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: forgeArgs(`${dir}/forge.toml`),
    cwd: REPO,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const port = await listening(child.stdout);
  const c = await ForgeClient.connect(`ws://127.0.0.1:${port}/socket`);
  await c.next((m) => m.kind === "settings");
  return {
    child,
    c,
    async stop() {
      await c.close().catch(() => {});
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Prices `more` from one cursor in paired arms. */
async function moreArms(
  arm: string,
  pid: number,
  c: ForgeClient,
  cursor: string | null,
  pairs: number,
  requests: number,
) {
  c.send({ kind: "more", conversation: seat, before: cursor, turns: 20 });
  const probe = await c.next((m) => m.kind === "page" || m.kind === "error");
  if (probe.kind === "error") {
    console.log(`${arm}: refused (${probe.what}: ${probe.why})`);
    return;
  }
  await pairedArms(arm, pid, pairs, requests, async () => {
    c.send({ kind: "more", conversation: seat, before: cursor, turns: 20 });
    const page = await c.next((m) => m.kind === "page" || m.kind === "error", 60_000);
    const n = (page.turns as unknown[] | undefined)?.length ?? 0;
    return { bytes: JSON.stringify(page).length, what: `${n} turns` };
  });
}

/**
 * Paired, interleaved arms: an idle window of the server, then `requests` requests, `pairs`
 * times. Each pair prices one request as (CPU of the request arm - the idle arm's CPU rate x the
 * request arm's wall) / requests; the median and range over the pairs are printed, with what
 * the last request moved.
 */
async function pairedArms(
  arm: string,
  pid: number,
  pairs: number,
  requests: number,
  once: () => Promise<{ bytes: number; what: string }>,
) {
  const per: number[] = [];
  const idleRates: number[] = [];
  let moved = { bytes: 0, what: "" };
  let idleMs = 1000;
  for (let p = 0; p < pairs; p++) {
    const idle = await cpuOver(pid, () => new Promise((r) => setTimeout(r, idleMs)));
    const busy = await cpuOver(pid, async () => {
      for (let i = 0; i < requests; i++) moved = await once();
    });
    const rate = idle.cpuNs / idle.wallMs;
    idleRates.push(rate / 1e6);
    per.push((busy.cpuNs - rate * busy.wallMs) / 1e6 / requests);
    idleMs = Math.max(500, busy.wallMs); // the next idle window as long as this busy one
  }
  console.log(
    `${arm.padEnd(13)} ${stats(per)} ms CPU per request above idle ` +
      `(${pairs} pairs x ${requests}; idle ${stats(idleRates.map((r) => r * 1000))} ms CPU/s); ` +
      `moved ${(moved.bytes / 1024).toFixed(0)} KiB a request, ${moved.what}`,
  );
}

/** "median (min..max)" of a sample. */
function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return `${m.toFixed(2)} (${s[0].toFixed(2)}..${s[s.length - 1].toFixed(2)})`;
}

/** The server process's CPU (ns, every thread) spent while `work` runs. */
function cpuOver(pid: number, work: () => Promise<unknown>) {
  return cpuWhile(pid, work, threadsNs);
}

/** This bench again, under the launcher's V8 flags (see the top of this file). */
async function underServerFlags(): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--v8-flags=${SERVER_V8_FLAGS}`, new URL(import.meta.url).pathname].concat(
      Deno.args,
    ),
    env: { FORGE_BENCH_OWN_FLAGS: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  return code;
}

if (import.meta.main) {
  if (Deno.env.get("FORGE_BENCH_OWN_FLAGS") === "1") await main();
  else Deno.exit(await underServerFlags());
}
