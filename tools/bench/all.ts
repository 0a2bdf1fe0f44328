/**
 * `deno task bench [name...] [--flag value...]`: runs the benchmarks under tools/bench/ one after
 * another, each in its own process so one's memory and JIT state do not colour the next. Names
 * are the file stems and come first; everything from the first flag on is handed to each named
 * bench (`deno task bench socket --clients 5`). Every bench's `GOAL` lines (support/goals.ts) are
 * repeated in one table at the end. Exits non-zero when any bench failed or missed a goal,
 * naming it.
 */
import { GOAL_PREFIX, MISSED_EXIT } from "./support/goals.ts";

const dir = new URL(".", import.meta.url).pathname;
const all = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ts") && e.name !== "all.ts")
  .map((e) => e.name.slice(0, -3))
  .sort();
const firstFlag = Deno.args.findIndex((a) => a.startsWith("-"));
const picked = firstFlag < 0 ? Deno.args : Deno.args.slice(0, firstFlag);
const passed = firstFlag < 0 ? [] : Deno.args.slice(firstFlag);
const unknown = picked.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(
    `no benchmark ${unknown.map((n) => `\`${n}\``).join(", ")} (have: ${all.join(", ")})`,
  );
  Deno.exit(2);
}
const failed: string[] = [];
const missed: string[] = [];
const goals: string[] = [];
for (const name of picked.length ? picked : all) {
  console.log(`== ${name}`);
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
  if (status.code === MISSED_EXIT) missed.push(name);
  else if (!status.success) {
    console.error(`${name} failed with exit code ${status.code}`);
    failed.push(name);
  }
}
if (goals.length > 0) console.log(`\n== goals\n${goals.join("\n")}`);
if (missed.length > 0) console.error(`goals missed in: ${missed.join(", ")}`);
if (failed.length > 0) console.error(`benchmarks failed: ${failed.join(", ")}`);
if (missed.length > 0 || failed.length > 0) Deno.exit(1);
