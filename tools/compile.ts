/**
 * `deno task compile`: builds `dist/forge`, one binary that serves forge without a Deno install.
 *
 * `deno compile` needs `denort`, the runtime it embeds, which only the Deno release site serves
 * (no npm package ships it). Point `DENORT_BIN` at a denort of the pinned version (2.9.6) and run
 * this task; without it the task says so and stops rather than trying the network.
 *
 * A compiled binary has its permissions fixed at compile time, so it cannot narrow them per
 * config the way `deno task start`'s launcher does; the flags below are the launcher's widest set.
 */
import { SERVER_V8_FLAGS } from "./permissions.ts";

const denort = Deno.env.get("DENORT_BIN");
if (!denort) {
  console.error(
    "forge compile: set DENORT_BIN to a denort 2.9.6 binary (denort-x86_64-unknown-linux-gnu from the\n" +
      "Deno release for 2.9.6). deno compile embeds that runtime, and this machine cannot download it.",
  );
  Deno.exit(1);
}
try {
  if (!Deno.statSync(denort).isFile) throw new Error("not a file");
} catch (err) {
  console.error(
    `forge compile: DENORT_BIN=${denort} is not a readable file (${(err as Error).message})`,
  );
  Deno.exit(1);
}
const repo = new URL("..", import.meta.url).pathname;
const sha = new TextDecoder().decode(
  (await new Deno.Command("git", {
    args: ["-C", repo, "rev-parse", "--short=7", "HEAD"],
    stdout: "piped",
  }).output()).stdout,
).trim();
await Deno.mkdir(`${repo}dist`, { recursive: true });
const args = [
  "compile",
  "--no-prompt",
  "--allow-net",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
  "--allow-read",
  "--allow-write",
  "--allow-ffi",
  `--v8-flags=${SERVER_V8_FLAGS}`,
  "--include",
  `${repo}subsystems`,
  `--env-file=${await stampFile(sha)}`,
  "-o",
  `${repo}dist/forge`,
  `${repo}main.ts`,
];
console.error(`forge compile: deno ${args.join(" ")}`);
const status = await new Deno.Command(Deno.execPath(), {
  args,
  env: { DENORT_BIN: denort },
  stdout: "inherit",
  stderr: "inherit",
}).spawn().status;
Deno.exit(status.code);

/** The build stamp rides an env file baked into the binary (FORGE_BUILD_SHA, read at boot). */
async function stampFile(stamp: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".env" });
  await Deno.writeTextFile(path, `FORGE_BUILD_SHA=${stamp || "unknown"}\n`);
  return path;
}
