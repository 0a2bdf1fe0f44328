/**
 * History at scale: the subscribe of a seat whose session holds `--turns` turns (20,000) beside
 * the same subscribe of a seat with `--short` (40, the floor), each seat in a forge of its own
 * running as its own process, in paired, interleaved arms (the order turns each pair), and what
 * each forge holds after.
 *
 *   tools/deno.sh task bench history [--turns 20000] [--short 40] [--pairs 7] [--requests 3]
 *
 * Both sessions are written by fixtures/history/turns.ts from the real CLI's rows, and both seats
 * are ones the session book remembers with no process running them, as after a restart: a seat's
 * first subscribe seeds its conversation from the transcript's newest page (printed, not judged).
 * An arm is an idle window (its CPU rate), then `--requests` subscribes and unsubscribes of one
 * seat, priced above that rate in its forge's CPU; each pair prints both arms' CPU and bytes and
 * their ratio. Then each forge's RSS, the same requests having been made of both, so what the
 * long history adds is the difference; then the long seat is paged back 50 pages with `more`.
 * Goals: the long seat's subscribe at most 1.5x the short one's in CPU and in bytes, and its
 * forge's RSS at most 1 MiB per 1,000 turns of history above the short one's.
 */
import { parseArgs } from "node:util";
import { GENERATED_SESSION } from "../../fixtures/history/generate.ts";
import { writeTurns } from "../../fixtures/history/turns.ts";
import { finishGoals, goal } from "./support/goals.ts";
import { median, spread } from "./support/stats.ts";
import { cpuOver, forgeProcess, rssMiB } from "./support/cpu.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    turns: { type: "string", default: "20000" },
    short: { type: "string", default: "40" },
    pairs: { type: "string", default: "7" },
    requests: { type: "string", default: "3" },
  },
});
const LONG = Number(values.turns);
const SHORT = Number(values.short);
const PAIRS = Number(values.pairs);
const REQUESTS = Number(values.requests);
const SEAT = { org: "Bench", project: "history", label: "lead" };
const settle = () => new Promise((r) => setTimeout(r, 2500)); // forge's idle collection

type Forge = Awaited<ReturnType<typeof forgeProcess>>;

/** A forge of its own whose one seat the book remembers on a transcript of `turns` turns. */
async function seatForge(dir: string, turns: number) {
  await Deno.mkdir(`${dir}/state/seats`, { recursive: true });
  await Deno.mkdir(`${dir}/history`);
  const transcript = `${dir}/history.jsonl`;
  const { bytes } = await writeTurns(transcript, turns);
  await Deno.writeTextFile(
    `${dir}/state/seats/sessions.json`,
    JSON.stringify({
      "Bench/history/lead": {
        slot: SEAT,
        session_id: GENERATED_SESSION,
        cwd: `${dir}/history`,
        transcript,
      },
    }),
  );
  await Deno.writeTextFile(
    `${dir}/forge.toml`,
    `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n[[orgs]]\nname = "Bench"\n` +
      `accounts = ["Fake"]\n[[orgs.projects]]\nname = "history"\npath = "${dir}/history"\n`,
  );
  const f = await forgeProcess(`${dir}/forge.toml`, {
    env: { HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
  });
  let wire = 0;
  f.client.socket.addEventListener("message", (e) => (wire += String(e.data).length));
  /** One subscribe and unsubscribe of the seat: its bytes and its snapshot's page. */
  const subscribe = async () => {
    const w0 = wire;
    f.client.send({ kind: "subscribe", what: { session: SEAT } });
    const snap = await f.client.next((m) => m.kind === "snapshot", 120_000);
    const moved = wire - w0;
    f.client.send({ kind: "unsubscribe", what: { session: SEAT } });
    f.client.send({ kind: "ping" });
    await f.client.next((m) => m.kind === "pong");
    const c = (snap.data as { conversation: { turns: unknown[]; cursor: string | null } })
      .conversation;
    return { bytes: moved, turns: c.turns.length, cursor: c.cursor };
  };
  return { forge: f, bytes, subscribe };
}

/** An idle window (its CPU rate), then REQUESTS subscribes priced above that rate. */
async function arm(s: Awaited<ReturnType<typeof seatForge>>, idleMs: number) {
  const pid = s.forge.pid;
  const idle = await cpuOver(pid, () => new Promise((r) => setTimeout(r, idleMs)));
  const busy = await cpuOver(pid, async () => {
    let last = { bytes: 0, turns: 0, cursor: null as string | null };
    for (let i = 0; i < REQUESTS; i++) last = await s.subscribe();
    return last;
  });
  const cpuMs = (busy.cpuNs - (idle.cpuNs / idle.wallMs) * busy.wallMs) / 1e6 / REQUESTS;
  return { cpuMs, wallMs: busy.wallMs, ...busy.result };
}

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-bench-history-" }));
const forges: Forge[] = [];
try {
  const t0 = performance.now();
  const long = await seatForge(`${dir}/long`, LONG);
  forges.push(long.forge);
  const short = await seatForge(`${dir}/short`, SHORT);
  forges.push(short.forge);
  const mib = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(
    `transcripts: ${LONG} turns (${mib(long.bytes)} MiB) and ${SHORT} turns ` +
      `(${mib(short.bytes)} MiB), written and both forges up in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      } s`,
  );
  const firstLong = await cpuOver(long.forge.pid, long.subscribe);
  const firstShort = await cpuOver(short.forge.pid, short.subscribe);
  console.log(
    `  first subscribe, seeding from disk: ${LONG} turns ${(firstLong.cpuNs / 1e6).toFixed(1)} ` +
      `ms cpu, ${SHORT} turns ${(firstShort.cpuNs / 1e6).toFixed(1)} ms cpu`,
  );
  const a: Awaited<ReturnType<typeof arm>>[] = [];
  const b: Awaited<ReturnType<typeof arm>>[] = [];
  let idleMs = 1000;
  for (let p = 0; p < PAIRS; p++) {
    for (const which of p % 2 === 0 ? [long, short] : [short, long]) {
      const r = await arm(which, idleMs);
      idleMs = Math.max(500, r.wallMs); // the next idle window as long as this busy one
      (which === long ? a : b).push(r);
    }
    const [l, s] = [a[p], b[p]];
    console.log(
      `  pair ${p + 1}: ${LONG} turns ${l.cpuMs.toFixed(2)} ms cpu, ${
        (l.bytes / 1024).toFixed(0)
      } KiB (${l.turns} turns) | ${SHORT} turns ${s.cpuMs.toFixed(2)} ms cpu, ${
        (s.bytes / 1024).toFixed(0)
      } KiB (${s.turns} turns) | ratio cpu ${(l.cpuMs / s.cpuMs).toFixed(2)}x, bytes ${
        (l.bytes / s.bytes).toFixed(2)
      }x`,
    );
  }
  await settle();
  const [longRss, shortRss] = [rssMiB(long.forge.pid), rssMiB(short.forge.pid)];
  // Paging back through the long history reads it page by page, never whole.
  let cursor = a[0].cursor;
  let pages = 0;
  const c = long.forge.client;
  const walk = await cpuOver(long.forge.pid, async () => {
    for (; pages < 50 && cursor !== null; pages++) {
      c.send({ kind: "more", conversation: SEAT, before: cursor, turns: 20 });
      const page = await c.next((m) => m.kind === "page" || m.kind === "error", 60_000);
      cursor = (page.cursor as string | null | undefined) ?? null;
    }
  });
  await settle();
  console.log(
    `  RSS after the pairs: ${longRss.toFixed(1)} MiB with ${LONG} turns, ${
      shortRss.toFixed(1)
    } MiB with ${SHORT}; ${pages} pages back with more, ${
      (walk.wallMs / Math.max(1, pages)).toFixed(1)
    } ms a page, then ${rssMiB(long.forge.pid).toFixed(1)} MiB`,
  );
  const cpu = a.map((l, i) => l.cpuMs / b[i].cpuMs);
  const bytes = a.map((l, i) => l.bytes / b[i].bytes);
  goal(
    `history subscribe, ${LONG} turns vs ${SHORT}, CPU`,
    median(cpu) <= 1.5,
    `${spread(cpu)}x; ${spread(a.map((l) => l.cpuMs))} ms, the ${SHORT}-turn seat (the floor) ` +
      `${spread(b.map((s) => s.cpuMs))} ms`,
    "<= 1.5x",
  );
  goal(
    `history subscribe, ${LONG} turns vs ${SHORT}, bytes`,
    median(bytes) <= 1.5,
    `${spread(bytes)}x; ${(a[0].bytes / 1024).toFixed(0)} KiB, the ${SHORT}-turn seat ` +
      `${(b[0].bytes / 1024).toFixed(0)} KiB`,
    "<= 1.5x",
  );
  const allowed = (LONG - SHORT) / 1000;
  goal(
    `forge RSS with a ${LONG}-turn seat`,
    longRss - shortRss <= allowed,
    `+${(longRss - shortRss).toFixed(1)} MiB (${longRss.toFixed(1)} MiB against ` +
      `${shortRss.toFixed(1)} MiB with the ${SHORT}-turn seat, the floor)`,
    `<= +1 MiB per 1,000 turns: +${allowed.toFixed(1)} MiB`,
  );
} finally {
  for (const f of forges) await f.stop();
  await Deno.remove(dir, { recursive: true });
}
finishGoals();
