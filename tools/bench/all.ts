/**
 * `deno task bench [name...]`: runs the benchmarks under tools/bench/ one after another, each in
 * its own process so one's memory and JIT state do not colour the next. Names: the file stems.
 */
const dir = new URL(".", import.meta.url).pathname;
const all = [...Deno.readDirSync(dir)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".ts") && n !== "all.ts")
  .map((n) => n.slice(0, -3))
  .sort();
// A flag's value follows it (`--messages 1000`): only words not after a flag name benchmarks.
const picked = Deno.args.filter((a, i) =>
  !a.startsWith("-") && !(i > 0 && Deno.args[i - 1].startsWith("--") && !a.includes("="))
);
for (const name of picked.length ? picked : all) {
  if (!all.includes(name)) {
    console.error(`no benchmark \`${name}\` (have: ${all.join(", ")})`);
    Deno.exit(2);
  }
  console.log(`== ${name}`);
  const rest = Deno.args.filter((a) => !picked.includes(a));
  const status = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir}${name}.ts`, ...rest],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) console.error(`${name} failed with ${status.code}`);
}
