/**
 * `deno task bench [name...] [--only a,b] [--skip a,b] [--flag value...]`: runs the benchmarks
 * under tools/bench/ one after another, each in its own process so one's memory and JIT state do
 * not colour the next. Names are the file stems and come first (`--only` says the same as a
 * flag); `--skip` leaves benches out of the whole run. Every other flag is handed to each bench
 * run (`deno task bench socket --clients 5`). At the end one table gives every bench's wall time
 * and how it ended, with the machine's load average beside, and every bench's `GOAL` lines
 * (support/goals.ts) follow. Exits non-zero when any bench failed or missed a goal, naming it.
 */
import { GOAL_PREFIX, MISSED_EXIT } from "./support/goals.ts";

const dir = new URL(".", import.meta.url).pathname;
const all = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ts") && e.name !== "all.ts")
  .map((e) => e.name.slice(0, -3))
  .sort();
const firstFlag = Deno.args.findIndex((a) => a.startsWith("-"));
const named = firstFlag < 0 ? Deno.args : Deno.args.slice(0, firstFlag);
const { only, skip, passed } = ownFlags(firstFlag < 0 ? [] : Deno.args.slice(firstFlag));
const unknown = [...named, ...only, ...skip].filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(
    `no benchmark ${unknown.map((n) => `\`${n}\``).join(", ")} (have: ${all.join(", ")})`,
  );
  Deno.exit(2);
}
const picked = [...named, ...only];
const run = (picked.length ? all.filter((n) => picked.includes(n)) : all)
  .filter((n) => !skip.includes(n));
const failed: string[] = [];
const missed: string[] = [];
const goals: string[] = [];
const times: string[] = [];
const t0 = performance.now();
for (const name of run) {
  console.log(`== ${name}`);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}${name}.ts`, ...passed],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // Passed through as it comes, and the goal lines kept for the table.
  let partial = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    await Deno.stdout.write(new TextEncoder().encode(chunk));
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) if (line.startsWith(GOAL_PREFIX)) goals.push(`${name}: ${line}`);
  }
  const status = await child.status;
  let ended = "ok";
  if (status.code === MISSED_EXIT) {
    missed.push(name);
    ended = "missed a goal";
  } else if (!status.success) {
    console.error(`${name} failed with exit code ${status.code}`);
    failed.push(name);
    ended = `failed (exit ${status.code})`;
  }
  times.push(row(name, performance.now() - started, ended));
}
console.log(`\n== times (wall; load average 1/5/15 min at the end)`);
console.log(times.join("\n"));
console.log(row("all", performance.now() - t0, `load ${Deno.loadavg().join(" ")}`));
if (goals.length > 0) console.log(`\n== goals\n${goals.join("\n")}`);
if (missed.length > 0) console.error(`goals missed in: ${missed.join(", ")}`);
if (failed.length > 0) console.error(`benchmarks failed: ${failed.join(", ")}`);
if (missed.length > 0 || failed.length > 0) Deno.exit(1);

/** One line of the time table: the bench, its wall time in minutes and seconds, how it ended. */
function row(name: string, ms: number, ended: string): string {
  const s = Math.round(ms / 1000);
  const time = `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${name.padEnd(18)} ${time.padStart(7)}  ${ended}`;
}

/**
 * Takes all.ts's own `--only` and `--skip` (`--only a,b` or `--only=a,b`) out of the flags; the
 * rest go to every bench.
 */
function ownFlags(flags: string[]): { only: string[]; skip: string[]; passed: string[] } {
  const lists: Record<string, string[]> = { only: [], skip: [] };
  const passed: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const m = /^--(only|skip)(?:=(.*))?$/.exec(flags[i]);
    if (!m) {
      passed.push(flags[i]);
      continue;
    }
    const value = m[2] ?? flags[++i] ?? "";
    lists[m[1]].push(...value.split(",").map((n) => n.trim()).filter(Boolean));
  }
  return { only: lists.only, skip: lists.skip, passed };
}
