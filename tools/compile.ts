/**
 * `deno task compile`: builds `dist/forge`, one binary that serves forge without a Deno install,
 * and smoke-runs it (tools/ship/smoke.ts): a binary that does not print `LISTENING` on a free port
 * and greet over the socket is removed and the task fails.
 *
 *   DENORT_BIN=/path/to/denort tools/deno.sh task compile [--out PATH]
 *
 * `deno compile` needs `denort`, the runtime it embeds, which only the Deno release site serves
 * (no npm package ships it). Point `DENORT_BIN` at a denort of the pinned version (2.9.6); without
 * it the task says so and stops rather than trying the network. The Deno CLI itself is refused:
 * fed to `deno compile` as the runtime it writes a file that is only the CLI, which never reads the
 * program embedded in it. Where no denort can be had, `task package` builds a self-contained file
 * instead (docs/shipping.md).
 *
 * A compiled binary has its permissions fixed at compile time, so it cannot narrow them per
 * config the way `deno task start`'s launcher does; the flags below are the launcher's widest set.
 */
import { SERVER_V8_FLAGS } from "./permissions.ts";
import { smokeRun } from "./ship/smoke.ts";

const fail: (why: string) => never = (why) => {
  console.error(`forge compile: ${why}`);
  Deno.exit(1);
};

/** Why `path` cannot be the runtime `deno compile` embeds, or null when it may be. */
export async function denortProblem(path: string): Promise<string | null> {
  try {
    if (!Deno.statSync(path).isFile) return `DENORT_BIN=${path} is not a file`;
  } catch (err) {
    return `DENORT_BIN=${path} is not a readable file (${(err as Error).message})`;
  }
  let said = "";
  try {
    const o = await new Deno.Command(path, {
      args: ["--version"],
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    said = new TextDecoder().decode(o.stdout) + new TextDecoder().decode(o.stderr);
  } catch (err) {
    return `DENORT_BIN=${path} cannot be run (${(err as Error).message})`;
  }
  // The CLI's banner: `deno 2.9.6 (stable, ...)`, then v8 and typescript lines.
  if (/^deno \d+\.\d+\.\d+/m.test(said) && /^typescript /m.test(said)) {
    return `DENORT_BIN=${path} is the Deno CLI (its --version printed "${said.split("\n")[0]}"), ` +
      "not denort: deno compile would write a file that is only the CLI and never runs forge. " +
      "Use denort-x86_64-unknown-linux-gnu from the Deno 2.9.6 release, or `task package`.";
  }
  return null;
}

if (import.meta.main) {
  const denort = Deno.env.get("DENORT_BIN") ?? fail(
    "set DENORT_BIN to a denort 2.9.6 binary (denort-x86_64-unknown-linux-gnu from the Deno\n" +
      "release for 2.9.6). deno compile embeds that runtime, and this machine cannot download it.\n" +
      "Without one, `tools/deno.sh task package` builds a self-contained file instead.",
  );
  const problem = await denortProblem(denort);
  if (problem) fail(problem);
  const repo = new URL("..", import.meta.url).pathname;
  const o = Deno.args.indexOf("--out");
  const out = o >= 0 ? Deno.args[o + 1] : `${repo}dist/forge`;
  const sha = new TextDecoder().decode(
    (await new Deno.Command("git", {
      args: ["-C", repo, "rev-parse", "--short=7", "HEAD"],
      stdout: "piped",
    }).output()).stdout,
  ).trim();
  await Deno.mkdir(out.replace(/\/[^/]*$/, "") || ".", { recursive: true });
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
    "--include",
    `${repo}server/workspace/stamps_worker.ts`,
    `--env-file=${await stampFile(sha)}`,
    "-o",
    out,
    `${repo}main.ts`,
  ];
  console.error(`forge compile: deno ${args.join(" ")}`);
  const status = await new Deno.Command(Deno.execPath(), {
    args,
    env: { DENORT_BIN: denort },
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!status.success) fail(`deno compile failed (status ${status.code})`);
  const smoke = await smokeRun([out]);
  if (!smoke.ok) {
    await Deno.remove(out).catch(() => {});
    fail(`FAILED the smoke run, removed ${out}: ${smoke.why}`);
  }
  console.error(`forge compile: ${out} greeted as ${smoke.forgeVersion}`);
}

/** The build stamp rides an env file baked into the binary (FORGE_BUILD_SHA, read at boot). */
async function stampFile(stamp: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".env" });
  await Deno.writeTextFile(path, `FORGE_BUILD_SHA=${stamp || "unknown"}\n`);
  return path;
}
