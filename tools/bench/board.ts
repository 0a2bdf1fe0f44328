/**
 * Board bench: what the board subject costs with 10 projects x 1,000 tasks, and what one
 * `tasks_changed` fan-out to 50 board subscribers costs.
 *
 *   tools/deno.sh run --allow-all tools/bench/board.ts [--projects 10] [--tasks 1000]
 *       [--subscribers 50] [--runs 7]
 *
 * Two in-process servers read the same generated state dir. Arms are paired and interleaved:
 *  - subscribe: `board` against `home` on the same server (the home read is what a board page
 *    paid before the board became its own subject), time to the snapshot and its bytes.
 *  - fan-out: one `task_assign` command, timed from send until every board subscriber holds the
 *    `tasks_changed` it caused: server A with N subscribers against server B with one.
 * Each arm prints its median, range, and the bytes it moved.
 */
import { decodeUpdate } from "../../protocol/mod.ts";
import { taskFilePath } from "../../server/board/book.ts";
import { TaskList } from "../../server/board/tasks.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { startServer } from "../../server/server.ts";
import { ForgeClient } from "../client_lib.ts";
import { numberFlag } from "./support/flags.ts";

const PROJECTS = numberFlag("projects", 10);
const TASKS = numberFlag("tasks", 1000);
const SUBSCRIBERS = numberFlag("subscribers", 50);
const RUNS = numberFlag("runs", 7);

const dir = await Deno.makeTempDir({ prefix: "forge-bench-board-" });
const names = Array.from({ length: PROJECTS }, (_, i) => `p${i}`);
const config = `[server]\nbind = "127.0.0.1"\n\n` +
  `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\nmodels = ["claude-sonnet-4-5"]\n\n` +
  `[[orgs]]\nname = "Acme"\naccounts = ["Fake"]\n` +
  names.map((n) => `\n[[orgs.projects]]\nname = "${n}"\npath = "${dir}/${n}"\n`).join("");
type Sample = { ms: number; bytes: number };
const utf8 = (s: string) => new TextEncoder().encode(s).length;

/** A board like a busy one: epics of ten, every status, owners, details and estimates. */
function generate(): TaskList[] {
  const t0 = Date.now() - 86_400_000;
  return names.map((name) => {
    const l = new TaskList(name);
    let epic: string | null = null;
    for (let i = 0; i < TASKS; i++) {
      if (i % 10 === 0) epic = null;
      const t = l.create(
        {
          subject: `Task ${i} of ${name}: make the thing work end to end`,
          detail: `What done means for task ${i}: the tests named in the issue pass.`,
          owner: i % 3 === 0 ? null : `w${i % 4}`,
          parent: epic,
          estimate: { secs: 3600, words: "an hour" },
        },
        t0 + i * 1000,
        "lead",
      );
      if (i % 10 === 0) epic = t.id;
      const status = (["in_progress", "completed", "pending", "waiting"] as const)[i % 4];
      l.update(t.id, { status }, t0 + i * 1000 + 500, "lead");
    }
    return l;
  });
}
const LISTS = generate();

/** Both servers read the same rows, so one task id addresses the same row on either. */
async function seed(stateDir: string) {
  const keeper = new StateKeeper(memoryLogger());
  for (const l of LISTS) {
    const path = taskFilePath(stateDir, "Acme", l.project);
    await keeper.file(path, { area: "the board", parse: (x) => x })
      .write({ version: 1, tasks: l.tasks });
  }
}

async function server(sub: string) {
  await Deno.mkdir(`${dir}/${sub}/state`, { recursive: true });
  await Deno.writeTextFile(`${dir}/${sub}/forge.toml`, config);
  await seed(`${dir}/${sub}/state`);
  return await startServer({
    configPath: `${dir}/${sub}/forge.toml`,
    port: 0,
    log: memoryLogger(),
  });
}

async function client(url: string) {
  const c = await ForgeClient.connect(url);
  await c.next((m) => m.kind === "settings");
  return c;
}

async function subscribe(c: ForgeClient, what: "board" | "home") {
  const start = performance.now();
  c.send({ kind: "subscribe", what });
  const snap = await c.next((m) => m.kind === "snapshot" && m.subject === what, 60_000);
  const ms = performance.now() - start;
  c.send({ kind: "unsubscribe", what });
  return { ms, bytes: utf8(JSON.stringify(snap)) };
}

const isChange = (m: Record<string, unknown>) =>
  m.kind === "update" && decodeUpdate(m.update).name === "tasks_changed";

async function fanOut(person: ForgeClient, watchers: ForgeClient[], id: string, owner: string) {
  const start = performance.now();
  person.send({ kind: "command", command: { task_assign: { project: "p0", id, owner } } });
  const got = await Promise.all(watchers.map((w) => w.next(isChange, 60_000)));
  return { ms: performance.now() - start, bytes: utf8(JSON.stringify(got[0])) };
}

function report(label: string, xs: { ms: number; bytes: number }[]) {
  const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
  const med = ms[Math.floor(ms.length / 2)];
  console.log(
    `${label.padEnd(42)} median ${med.toFixed(1).padStart(7)} ms  range ${ms[0].toFixed(1)}-${
      ms.at(-1)!.toFixed(1)
    } ms  ${(xs[0].bytes / 1024).toFixed(1)} KiB per frame`,
  );
}

const a = await server("a");
const b = await server("b");
try {
  console.log(
    `board bench: ${PROJECTS} projects x ${TASKS} tasks; ${SUBSCRIBERS} subscribers; ${RUNS} runs`,
  );
  const reader = await client(a.url);
  const arms: Record<"board" | "home", Sample[]> = { board: [], home: [] };
  await subscribe(reader, "board"); // warm-up: the books are read once at boot, JIT settles
  for (let i = 0; i < RUNS; i++) {
    for (const what of (i % 2 ? ["home", "board"] : ["board", "home"]) as ("board" | "home")[]) {
      arms[what].push(await subscribe(reader, what));
    }
  }
  report("subscribe board (10 x 1000 rows)", arms.board);
  report("subscribe home (baseline)", arms.home);

  const many = await Promise.all(Array.from({ length: SUBSCRIBERS }, () => client(a.url)));
  const one = [await client(b.url)];
  for (const w of [...many, ...one]) {
    w.send({ kind: "subscribe", what: "board" });
    await w.next((m) => m.kind === "snapshot", 60_000);
  }
  const personA = await client(a.url);
  const personB = await client(b.url);
  const target = LISTS[0].ordered()[0].id;
  const fan: Record<"many" | "one", Sample[]> = { many: [], one: [] };
  for (let i = 0; i < RUNS; i++) {
    const owner = `w${i}`;
    const order = i % 2 ? ["one", "many"] as const : ["many", "one"] as const;
    for (const arm of order) {
      fan[arm].push(
        arm === "many"
          ? await fanOut(personA, many, target, owner)
          : await fanOut(personB, one, target, owner),
      );
    }
  }
  report(`tasks_changed to ${SUBSCRIBERS} subscribers`, fan.many);
  report("tasks_changed to 1 subscriber (baseline)", fan.one);
  for (const c of [reader, ...many, ...one, personA, personB]) await c.close();
} finally {
  await a.stop();
  await b.stop();
  await Deno.remove(dir, { recursive: true });
}
