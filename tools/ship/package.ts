/**
 * `tools/deno.sh task package`: builds `dist/forge.run`, one self-contained file for a machine
 * that has no Deno and may have no network: a `sh` stub (stub.ts) followed by a compressed tar of
 * the pinned `deno` (the one running this), the app (the working tree's tracked files, with a
 * `deno.json` that reads npm packages from `node_modules/` only) and its `node_modules/`. It then
 * smoke-runs the file (smoke.ts) and fails loudly, removing it, when it does not greet.
 *
 *   tools/deno.sh task package [--out PATH] [--gzip] [--no-smoke]
 *
 * `--gzip` compresses with gzip instead of zstd, for a target without zstd (larger and slower).
 * Where a `denort` of the pinned version can be had, `task compile` makes a smaller single
 * binary instead; this file is for everywhere else (docs/shipping.md).
 */
import { createHash } from "node:crypto";
import { smokeRun } from "./smoke.ts";
import { stub } from "./stub.ts";

const repo = new URL("../../", import.meta.url).pathname;
const arg = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : null;
};
const out = arg("--out") ?? `${repo}dist/forge.run`;
const compression = Deno.args.includes("--gzip") ? "gzip" : "zstd";

/** Runs a command to completion; its stdout, or a thrown sentence with its stderr. */
async function run(cmd: string, args: string[], cwd = repo): Promise<string> {
  const o = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  if (!o.success) {
    const why = new TextDecoder().decode(o.stderr).trim().split("\n").slice(-3).join(" ");
    throw new Error(`${cmd} ${args.slice(0, 2).join(" ")} failed: ${why}`);
  }
  return new TextDecoder().decode(o.stdout);
}

/** The app's files: what git tracks, as the working tree holds them (a deleted one is left out). */
async function stageApp(app: string): Promise<void> {
  const files = (await run("git", ["ls-files", "-z"])).split("\0").filter(Boolean);
  for (const f of files) {
    const from = `${repo}${f}`;
    const stat = await Deno.lstat(from).catch(() => null);
    if (!stat?.isFile) continue;
    await Deno.mkdir(`${app}/${f.replace(/\/?[^/]*$/, "")}`, { recursive: true });
    await Deno.copyFile(from, `${app}/${f}`);
  }
  // Shipped, the npm packages are the ones in node_modules/ and nothing is looked up.
  const config = JSON.parse(await Deno.readTextFile(`${repo}deno.json`));
  config.nodeModulesDir = "manual";
  await Deno.writeTextFile(`${app}/deno.json`, JSON.stringify(config, null, 2) + "\n");
}

/** The launcher's own flags, read from the `start` task so the two never differ. */
async function launcherFlags(): Promise<string[]> {
  const task: string = JSON.parse(await Deno.readTextFile(`${repo}deno.json`)).tasks.start;
  const flags = task.split(/\s+/).filter((w) => w.startsWith("--"));
  return ["--no-prompt", ...flags];
}

/** tar of stage/ (deno, app/) and the repo's node_modules/ as app/node_modules/, compressed. */
async function writePayload(stage: string, path: string): Promise<string> {
  const tar = new Deno.Command("tar", {
    args: [
      "-c",
      "--owner=0",
      "--group=0",
      "-C",
      stage,
      "deno",
      "app",
      "-C",
      repo,
      // The rename applies to member names only (S: not to symlink targets inside the tree).
      "--transform=s,^node_modules,app/node_modules,S",
      "node_modules",
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const squeeze = new Deno.Command(compression, {
    args: compression === "zstd" ? ["-3", "-T0", "-q", "-c"] : ["-1", "-c"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const hash = createHash("sha256");
  const tarErr = new Response(tar.stderr).text();
  const piped = tar.stdout.pipeTo(squeeze.stdin);
  for await (const chunk of squeeze.stdout) {
    hash.update(chunk);
    for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
  }
  file.close();
  await piped;
  const [t, z] = [await tar.status, await squeeze.status];
  if (!t.success) throw new Error(`tar failed: ${(await tarErr).trim()}`);
  if (!z.success) throw new Error(`${compression} failed (status ${z.code})`);
  return hash.digest("hex");
}

if (import.meta.main) {
  const started = Date.now();
  await Deno.mkdir(out.replace(/\/[^/]*$/, "") || ".", { recursive: true });
  const stage = await Deno.makeTempDir({
    dir: out.replace(/\/[^/]*$/, "") || ".",
    prefix: ".stage-",
  });
  try {
    // Every npm package deno.json names is in node_modules/ before it is packed.
    await run(Deno.execPath(), ["install", "--quiet"]);
    await Deno.copyFile(Deno.execPath(), `${stage}/deno`);
    await stageApp(`${stage}/app`);
    const payload = `${stage}/payload`;
    const hash = await writePayload(stage, payload);
    const sha = (await run("git", ["rev-parse", "--short=7", "HEAD"])).trim() || "unknown";
    const head = stub({
      hash: hash.slice(0, 16),
      sha,
      compression,
      launcherFlags: await launcherFlags(),
    });
    const file = await Deno.open(out, { write: true, create: true, truncate: true, mode: 0o755 });
    await file.write(new TextEncoder().encode(head));
    const body = await Deno.open(payload);
    await body.readable.pipeTo(file.writable);
    await Deno.chmod(out, 0o755);
  } finally {
    await Deno.remove(stage, { recursive: true });
  }
  const size = (await Deno.stat(out)).size;
  console.error(`forge package: wrote ${out} (${(size / 2 ** 20).toFixed(0)} MiB, ${compression})`);
  if (!Deno.args.includes("--no-smoke")) {
    const result = await smokeRun([out]);
    if (!result.ok) {
      await Deno.remove(out);
      console.error(`forge package: FAILED the smoke run, removed ${out}: ${result.why}`);
      Deno.exit(1);
    }
    console.error(`forge package: smoke run ok: ${result.forgeVersion} greeted on a free port`);
  }
  console.error(`forge package: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
