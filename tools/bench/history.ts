/**
 * History at scale: the subscribe of a seat whose session holds `--turns` turns (20,000) beside
 * the same subscribe of a seat with `--short` (40), both in one forge running as its own process,
 * in paired, interleaved arms (the order turns each pair), and forge's memory after.
 *
 *   tools/deno.sh task bench history [--turns 20000] [--short 40] [--pairs 7] [--requests 3]
 *
 * Both sessions are written by fixtures/history/turns.ts from the real CLI's rows, and both seats
 * are ones the session book remembers with no process running them, as after a restart: a
 * seat's first subscribe seeds its conversation from the transcript's newest page (printed). An
 * arm is an idle window (its CPU rate), then `--requests` subscribes and unsubscribes of one
 * seat, priced above that rate in the process's CPU; each pair prints both arms' CPU and bytes
 * and their ratio. The long seat is then paged back 50 pages with `more`. forge's RSS is read
 * after its boot and the short seat's first subscribe (the floor), and again after everything
 * the long seat was asked.
 * Goals: the long seat's subscribe at most 1.5x the short one's in CPU and in bytes, and forge's
 * RSS after at most 1 MiB per 1,000 turns of history above the floor.
 */
import { parseArgs } from "node:util";
import { GENERATED_SESSION } from "../../fixtures/history/generate.ts";
import { writeTurns } from "../../fixtures/history/turns.ts";
import { finishGoals, goal, median, range } from "./support/goals.ts";
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
const seat = (project: string) => ({ org: "Bench", project, label: "lead" });

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-bench-history-" }));
let forge: Awaited<ReturnType<typeof forgeProcess>> | null = null;
try {
  const book: Record<string, unknown> = {};
  const sizes: Record<string, number> = {};
  await Deno.mkdir(`${dir}/state/seats`, { recursive: true });
  const t0 = performance.now();
  for (const [project, turns] of [["long", LONG], ["short", SHORT]] as const) {
    await Deno.mkdir(`${dir}/${project}`);
    const transcript = `${dir}/${project}.jsonl`;
    sizes[project] = (await writeTurns(transcript, turns)).bytes;
    book[`Bench/${project}/lead`] = {
      slot: seat(project),
      session_id: GENERATED_SESSION,
      cwd: `${dir}/${project}`,
      transcript,
    };
  }
  await Deno.writeTextFile(`${dir}/state/seats/sessions.json`, JSON.stringify(book));
  await Deno.writeTextFile(
    `${dir}/forge.toml`,
    `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n[[orgs]]\nname = "Bench"\n` +
      `accounts = ["Fake"]\n` +
      ["long", "short"].map((p) => `[[orgs.projects]]\nname = "${p}"\npath = "${dir}/${p}"\n`)
        .join(""),
  );
  const mib = (n: number) => (n / 2 ** 20).toFixed(0);
  console.log(
    `transcripts: ${LONG} turns (${mib(sizes.long)} MiB) and ${SHORT} turns ` +
      `(${mib(sizes.short)} MiB), written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  forge = await forgeProcess(`${dir}/forge.toml`, {
    env: { HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude` },
  });
  const f = forge;
  let wire = 0;
  f.client.socket.addEventListener("message", (e) => (wire += String(e.data).length));
  /** One subscribe and unsubscribe of `project`'s seat: its bytes, its snapshot's page. */
  const subscribe = async (project: string) => {
    const w0 = wire;
    f.client.send({ kind: "subscribe", what: { session: seat(project) } });
    const snap = await f.client.next((m) => m.kind === "snapshot", 120_000);
    const bytes = wire - w0;
    f.client.send({ kind: "unsubscribe", what: { session: seat(project) } });
    f.client.send({ kind: "ping" });
    await f.client.next((m) => m.kind === "pong");
    const c = (snap.data as { conversation: { turns: unknown[]; cursor: string | null } })
      .conversation;
    return { bytes, turns: c.turns.length, cursor: c.cursor };
  };
  // The floor: booted, and the short seat's first subscribe done.
  const firstShort = await cpuOver(f.pid, () => subscribe("short"));
  await new Promise((r) => setTimeout(r, 1000));
  const floorRss = rssMiB(f.pid);
  // The long seat's first subscribe seeds its conversation from the transcript's newest page
  // and counts the compactions above it: printed, not judged, as every later one reads what
  // that one seeded.
  const firstLong = await cpuOver(f.pid, () => subscribe("long"));
  console.log(
    `  first subscribe, seeding from disk: ${LONG} turns ${
      (firstLong.cpuNs / 1e6).toFixed(1)
    } ms ` +
      `cpu, ${SHORT} turns ${(firstShort.cpuNs / 1e6).toFixed(1)} ms cpu`,
  );

  let idleMs = 1000;
  const arm = async (project: string) => {
    const idle = await cpuOver(f.pid, () => new Promise((r) => setTimeout(r, idleMs)));
    const busy = await cpuOver(f.pid, async () => {
      let last = { bytes: 0, turns: 0, cursor: null as string | null };
      for (let i = 0; i < REQUESTS; i++) last = await subscribe(project);
      return last;
    });
    idleMs = Math.max(500, busy.wallMs);
    const cpuMs = (busy.cpuNs - (idle.cpuNs / idle.wallMs) * busy.wallMs) / 1e6 / REQUESTS;
    return { cpuMs, ...busy.result };
  };
  const long: Awaited<ReturnType<typeof arm>>[] = [];
  const short: Awaited<ReturnType<typeof arm>>[] = [];
  for (let p = 0; p < PAIRS; p++) {
    for (const project of p % 2 === 0 ? ["long", "short"] : ["short", "long"]) {
      (project === "long" ? long : short).push(await arm(project));
    }
    const [l, s] = [long[p], short[p]];
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
  // Paging back through the long history reads it page by page, never whole.
  let cursor = long[0].cursor;
  let pages = 0;
  const walk = await cpuOver(f.pid, async () => {
    for (; pages < 50 && cursor !== null; pages++) {
      f.client.send({ kind: "more", conversation: seat("long"), before: cursor, turns: 20 });
      const page = await f.client.next((m) => m.kind === "page" || m.kind === "error", 60_000);
      cursor = (page.cursor as string | null | undefined) ?? null;
    }
  });
  await new Promise((r) => setTimeout(r, 2500)); // forge's idle collection after a burst
  const afterRss = rssMiB(f.pid);
  console.log(
    `  ${pages} pages back with more: ${(walk.wallMs / pages).toFixed(1)} ms a page; RSS ` +
      `${floorRss.toFixed(1)} MiB after boot and the short seat, ${afterRss.toFixed(1)} MiB after`,
  );
  const cpu = long.map((l, i) => l.cpuMs / short[i].cpuMs);
  const bytes = long.map((l, i) => l.bytes / short[i].bytes);
  goal(
    `history subscribe, ${LONG} turns vs ${SHORT}, CPU`,
    median(cpu) <= 1.5,
    `${range(cpu)}x; ${range(long.map((l) => l.cpuMs))} ms, the ${SHORT}-turn seat (the floor) ` +
      `${range(short.map((s) => s.cpuMs))} ms`,
    "<= 1.5x",
  );
  goal(
    `history subscribe, ${LONG} turns vs ${SHORT}, bytes`,
    median(bytes) <= 1.5,
    `${range(bytes)}x; ${(long[0].bytes / 1024).toFixed(0)} KiB, the ${SHORT}-turn seat ` +
      `${(short[0].bytes / 1024).toFixed(0)} KiB`,
    "<= 1.5x",
  );
  const allowed = LONG / 1000;
  goal(
    `forge RSS after a ${LONG}-turn seat`,
    afterRss - floorRss <= allowed,
    `+${(afterRss - floorRss).toFixed(1)} MiB (${afterRss.toFixed(1)} MiB against ` +
      `${floorRss.toFixed(1)} MiB after boot)`,
    `<= +1 MiB per 1,000 turns: +${allowed.toFixed(0)} MiB`,
  );
} finally {
  await forge?.stop();
  await Deno.remove(dir, { recursive: true });
}
finishGoals();
