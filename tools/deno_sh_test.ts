// tools/deno.sh reinstalls the toolchain when what npm installed no longer matches
// tools/toolchain/package-lock.json. Each case runs the real script from a copy laid out like
// the repository (tools/deno.sh beside tools/toolchain/), with a lock edited the way a checkout
// that moves a pin edits it; the decision is read through FORGE_TOOLCHAIN_DRY_RUN, and the
// install itself through an `npm` on PATH that records its call (the registry is not the subject).
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../tests/assert.ts";

const here = new URL("./", import.meta.url);
const script = new URL("deno.sh", here);
const lockText = await Deno.readTextFile(new URL("toolchain/package-lock.json", here));
const installedText = await Deno.readTextFile(
  new URL("toolchain/node_modules/.package-lock.json", here),
);

type Lock = { packages: Record<string, { version?: string }> };

/** The lock with one package's version moved, written as npm writes it. */
function bumped(text: string, pkg: string, version: string): string {
  const lock = JSON.parse(text) as Lock;
  assert(lock.packages[`node_modules/${pkg}`], `the lock names ${pkg}`);
  lock.packages[`node_modules/${pkg}`].version = version;
  return JSON.stringify(lock, null, 2) + "\n";
}

interface Layout {
  lock?: string;
  /** npm's record of the installed tree; null for a tree never installed. */
  installed?: string | null;
  bins?: ("deno" | "claude")[];
}

/** A repository-shaped copy: tools/deno.sh, tools/toolchain/ and a fake installed tree. */
async function layout(opts: Layout = {}): Promise<{ root: string; chain: string }> {
  const root = await Deno.makeTempDir({ prefix: "forge-deno-sh-" });
  const chain = `${root}/tools/toolchain`;
  await Deno.mkdir(`${chain}/node_modules/.bin`, { recursive: true });
  await Deno.copyFile(script, `${root}/tools/deno.sh`);
  await Deno.writeTextFile(`${chain}/package-lock.json`, opts.lock ?? lockText);
  const installed = opts.installed === undefined ? installedText : opts.installed;
  if (installed !== null) {
    await Deno.writeTextFile(`${chain}/node_modules/.package-lock.json`, installed);
  }
  for (const bin of opts.bins ?? ["deno", "claude"]) await stubBin(chain, bin);
  return { root, chain };
}

/** An executable that says which binary ran, with its arguments and the CLI it was handed. */
async function stubBin(chain: string, name: string): Promise<void> {
  const path = `${chain}/node_modules/.bin/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\necho "${name} $* claude=$FORGE_CLAUDE_BIN"\n`);
  await Deno.chmod(path, 0o755);
}

/**
 * An `npm` that records where and how it was called; `installs` makes it do what `npm ci` leaves
 * behind (the lock as the installed record, and both binaries).
 */
async function fakeNpm(root: string, installs: boolean): Promise<string> {
  const dir = `${root}/path`;
  await Deno.mkdir(dir);
  const install = installs
    ? "cp package-lock.json node_modules/.package-lock.json\n" +
      'for b in deno claude; do printf \'#!/bin/sh\\necho "%s $* claude=$FORGE_CLAUDE_BIN"\\n\' "$b" ' +
      "> node_modules/.bin/$b; chmod 755 node_modules/.bin/$b; done\n"
    : "";
  await Deno.writeTextFile(
    `${dir}/npm`,
    `#!/bin/sh\necho "$PWD: npm $*" >> ${root}/npm.log\n${install}`,
  );
  await Deno.chmod(`${dir}/npm`, 0o755);
  return dir;
}

async function run(root: string, env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command("bash", {
    args: [`${root}/tools/deno.sh`, ...args],
    env: { FORGE_CLAUDE_BIN: "", FORGE_TOOLCHAIN_DRY_RUN: "", ...env },
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

const decide = async (opts: Layout) => {
  const { root } = await layout(opts);
  try {
    return (await run(root, { FORGE_TOOLCHAIN_DRY_RUN: "1" })).stdout;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
};

const npmLog = (root: string) => Deno.readTextFile(`${root}/npm.log`).catch(() => "");

Deno.test("deno.sh: the toolchain this test runs on matches its lock", async () => {
  const out = await new Deno.Command("bash", {
    args: [fileURLToPath(script)],
    env: { FORGE_TOOLCHAIN_DRY_RUN: "1" },
  }).output();
  assertEquals(new TextDecoder().decode(out.stdout), "current\n");
});

Deno.test("deno.sh: a tree installed from the same lock is current", async () => {
  assertEquals(await decide({}), "current");
});

Deno.test("deno.sh: a lock that moves Deno or the CLI reinstalls, naming both versions", async () => {
  const deno = JSON.parse(installedText).packages["node_modules/deno"].version;
  assertEquals(
    await decide({ lock: bumped(lockText, "deno", "99.0.0") }),
    `reinstall: deno ${deno} is installed, the lock pins 99.0.0`,
  );
  const cli = JSON.parse(installedText).packages["node_modules/@anthropic-ai/claude-code"].version;
  assertEquals(
    await decide({ lock: bumped(lockText, "@anthropic-ai/claude-code", "9.9.9") }),
    `reinstall: @anthropic-ai/claude-code ${cli} is installed, the lock pins 9.9.9`,
  );
});

Deno.test("deno.sh: a tree never installed, or missing a binary, reinstalls", async () => {
  assertEquals(await decide({ installed: null }), "reinstall: nothing is installed yet");
  assertEquals(
    await decide({ bins: ["deno"] }),
    "reinstall: node_modules/.bin has no runnable deno or claude",
  );
});

Deno.test("deno.sh: a moved pin runs npm ci in the toolchain, then the new deno", async () => {
  const { root, chain } = await layout({ lock: bumped(lockText, "deno", "99.0.0") });
  try {
    const path = await fakeNpm(root, true);
    const got = await run(root, { PATH: `${path}:${Deno.env.get("PATH")}` }, "--version");
    assertEquals(got.code, 0, got.stderr);
    assertEquals(await npmLog(root), `${chain}: npm ci --no-audit --no-fund --loglevel=error\n`);
    const deno = JSON.parse(installedText).packages["node_modules/deno"].version;
    assertEquals(
      got.stderr,
      "forge: installing the pinned toolchain (deno, claude) with npm ci " +
        `(deno ${deno} is installed, the lock pins 99.0.0)...`,
    );
    assertEquals(got.stdout, `deno --version claude=${chain}/node_modules/.bin/claude`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("deno.sh: a current tree never calls npm", async () => {
  const { root } = await layout({});
  try {
    const path = await fakeNpm(root, true);
    const got = await run(root, { PATH: `${path}:${Deno.env.get("PATH")}` }, "x");
    assertEquals([got.code, await npmLog(root)], [0, ""]);
    assert(got.stdout.startsWith("deno x claude="), got.stdout);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("deno.sh: an install that still leaves the tree off the lock stops, saying so", async () => {
  const { root } = await layout({ lock: bumped(lockText, "deno", "99.0.0") });
  try {
    const path = await fakeNpm(root, false);
    const got = await run(root, { PATH: `${path}:${Deno.env.get("PATH")}` }, "x");
    assertEquals(got.code, 1);
    assertEquals(got.stdout, "");
    assert(got.stderr.includes("still does not match the lock (deno"), got.stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
