/**
 * Home at scale: the home subscribe of a forge configured with `--projects` projects (200) beside
 * the same subscribe of a forge with one, both as their own processes on the same machine, in
 * paired, interleaved arms (the order turns each pair).
 *
 *   tools/deno.sh task bench home [--projects 200] [--pairs 7] [--sessions 3]
 *
 * Every project is a git repository with a commit and a changed file, and the CLI's config dir
 * holds `--sessions` transcripts for it, so each row reads a real tree and a real catalog. An arm
 * is one `subscribe home` after an idle window longer than a live tree's reuse window (the work
 * glance's two seconds), as a client re-reading the fleet does: its CPU is the process's and its
 * children's (git) above the idle rate measured over that window. The first read of each, which
 * reads every tree and catalog fresh, is printed beside them. Each pair prints both arms' CPU,
 * wall and snapshot bytes, and the ratio.
 * Goals: the 200-project snapshot at most 200 KB, and its subscribe CPU at most 20x the
 * 1-project home's (the floor: the same read with one project).
 */
import { parseArgs } from "node:util";
import { finishGoals, goal } from "./support/goals.ts";
import { median, spread } from "./support/stats.ts";
import { cpuOver, forgeProcess } from "./support/cpu.ts";

const { values } = parseArgs({
  args: Deno.args,
  strict: false,
  options: {
    projects: { type: "string", default: "200" },
    pairs: { type: "string", default: "7" },
    sessions: { type: "string", default: "3" },
  },
});
const PROJECTS = Number(values.projects);
const PAIRS = Number(values.pairs);
const SESSIONS = Number(values.sessions);
const REPO = new URL("../../", import.meta.url).pathname;
/** Longer than the work glance's reuse window (server/workspace/work.ts), so every arm reads. */
const IDLE_MS = 2_200;

async function git(cwd: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=bench", "-c", "user.email=bench@forge.invalid", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** `n` projects: repositories with a commit and a changed file, each with its transcripts. */
async function projects(dir: string, n: number): Promise<string[]> {
  const transcript = await Deno.readTextFile(`${REPO}fixtures/transcripts/multi_turn.jsonl`);
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const path = `${dir}/src/p${String(i).padStart(3, "0")}`;
    await Deno.mkdir(path, { recursive: true });
    await Deno.writeTextFile(`${path}/README.md`, `# project ${i}\n`);
    await git(path, "init", "-q", "-b", "main");
    await git(path, "add", "-A");
    await git(path, "commit", "-q", "-m", "first");
    await Deno.writeTextFile(`${path}/README.md`, `# project ${i}\n\nchanged\n`);
    const folder = `${dir}/claude/projects/${path.replace(/[^A-Za-z0-9]/g, "-")}`;
    await Deno.mkdir(folder, { recursive: true });
    for (let s = 0; s < SESSIONS; s++) {
      await Deno.writeTextFile(`${folder}/${crypto.randomUUID()}.jsonl`, transcript);
    }
    paths.push(path);
  }
  return paths;
}

function config(paths: string[]): string {
  return `[server]\nbind = "127.0.0.1"\n\n` +
    `[[accounts]]\ndisplay_name = "Fake"\nprovider = "anthropic"\n\n` +
    `[[orgs]]\nname = "Bench"\naccounts = ["Fake"]\n` +
    paths.map((p, i) => `\n[[orgs.projects]]\nname = "p${i}"\npath = "${p}"\n`).join("");
}

type Forge = Awaited<ReturnType<typeof forgeProcess>>;

/** One arm: an idle window (its CPU rate), then one home subscribe priced above that rate. */
async function arm(f: Forge) {
  const idle = await cpuOver(f.pid, () => new Promise((r) => setTimeout(r, IDLE_MS)));
  let bytes = 0;
  const count = (e: MessageEvent) => (bytes += String(e.data).length);
  f.client.socket.addEventListener("message", count);
  const busy = await cpuOver(f.pid, async () => {
    f.client.send({ kind: "subscribe", what: "home" });
    return await f.client.next((m) => m.kind === "snapshot", 120_000);
  });
  f.client.socket.removeEventListener("message", count);
  f.client.send({ kind: "unsubscribe", what: "home" });
  const data = busy.result.data as { projects: unknown[]; agents: unknown[] };
  return {
    cpuMs: (busy.cpuNs - (idle.cpuNs / idle.wallMs) * busy.wallMs) / 1e6,
    wallMs: busy.wallMs,
    bytes,
    rows: `${data.projects.length} projects, ${data.agents.length} agents`,
  };
}

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-bench-home-" }));
const forges: Forge[] = [];
try {
  const t0 = performance.now();
  const paths = await projects(dir, PROJECTS);
  // Each forge in its own config dir: a state dir is one forge's (server/state/owner.ts).
  for (const name of ["one", "many"]) await Deno.mkdir(`${dir}/${name}`);
  await Deno.writeTextFile(`${dir}/one/forge.toml`, config(paths.slice(0, 1)));
  await Deno.writeTextFile(`${dir}/many/forge.toml`, config(paths));
  console.log(
    `${PROJECTS} projects (git repositories, 1 changed file, ${SESSIONS} transcripts each) made ` +
      `in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${PAIRS} pairs, an idle ` +
      `${IDLE_MS} ms before each subscribe`,
  );
  const env = { HOME: dir, CLAUDE_CONFIG_DIR: `${dir}/claude`, PATH: Deno.env.get("PATH") ?? "" };
  const one = await forgeProcess(`${dir}/one/forge.toml`, { env });
  forges.push(one);
  const many = await forgeProcess(`${dir}/many/forge.toml`, { env });
  forges.push(many);
  // The first read of each reads every glance and catalog (and warms the JIT): printed, not
  // judged, since every read after it reuses what has not moved.
  const [first1, firstN] = [await arm(one), await arm(many)];
  console.log(
    `  first read, every row read fresh: 1 project ${first1.cpuMs.toFixed(1)} ms cpu, ` +
      `${PROJECTS} projects ${firstN.cpuMs.toFixed(1)} ms cpu (${
        firstN.wallMs.toFixed(0)
      } ms wall)`,
  );
  const a: Awaited<ReturnType<typeof arm>>[] = [];
  const b: Awaited<ReturnType<typeof arm>>[] = [];
  for (let p = 0; p < PAIRS; p++) {
    const order = p % 2 === 0 ? [one, many] : [many, one];
    for (const f of order) (f === one ? a : b).push(await arm(f));
    const [x, y] = [a[p], b[p]];
    console.log(
      `  pair ${p + 1}: 1 project ${x.cpuMs.toFixed(1)} ms cpu, ${x.wallMs.toFixed(1)} ms wall, ` +
        `${(x.bytes / 1024).toFixed(1)} KiB | ${PROJECTS} projects ${y.cpuMs.toFixed(1)} ms cpu, ` +
        `${y.wallMs.toFixed(1)} ms wall, ${(y.bytes / 1024).toFixed(1)} KiB (${y.rows}) | ratio ` +
        `${(y.cpuMs / x.cpuMs).toFixed(1)}x`,
    );
  }
  const ratios = b.map((y, i) => y.cpuMs / a[i].cpuMs);
  const kb = median(b.map((y) => y.bytes)) / 1000;
  goal(
    `home snapshot, ${PROJECTS} projects`,
    kb <= 200,
    `${kb.toFixed(1)} KB (1 project: ${(median(a.map((x) => x.bytes)) / 1000).toFixed(1)} KB)`,
    "<= 200 KB",
  );
  goal(
    `home subscribe CPU, ${PROJECTS} projects vs 1`,
    median(ratios) <= 20,
    `${spread(ratios, 1)}x; ${PROJECTS} projects ${spread(b.map((y) => y.cpuMs), 1)} ms, ` +
      `1 project (the floor) ${spread(a.map((x) => x.cpuMs), 1)} ms`,
    "<= 20x the 1-project home",
  );
} finally {
  for (const f of forges) await f.stop();
  await Deno.remove(dir, { recursive: true });
}
finishGoals();
