/**
 * `deno task bench [name...] [--flag value...]`: runs the benchmarks under tools/bench/ one after
 * another, each in its own process so one's memory and JIT state do not colour the next. Names
 * are the file stems and come first; everything from the first flag on is handed to each named
 * bench (`deno task bench socket --clients 5`). Exits non-zero when any bench failed, naming it.
 */
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
for (const name of picked.length ? picked : all) {
  console.log(`== ${name}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}${name}.ts`, ...passed],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) {
    console.error(`${name} failed with exit code ${status.code}`);
    failed.push(name);
  }
}
if (failed.length > 0) {
  console.error(`benchmarks failed: ${failed.join(", ")}`);
  Deno.exit(1);
}
