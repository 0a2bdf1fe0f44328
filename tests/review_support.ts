/**
 * Test support: real git repositories built in temp dirs. Every helper shells out to the real
 * git with a fixed identity and fixed dates, so `committed` times are known exactly.
 */

/** The committer date every helper commit carries (unix seconds). */
export const COMMIT_TIME = 1_700_000_000;

const ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: "Forge Test",
  GIT_AUTHOR_EMAIL: "test@forge.invalid",
  GIT_COMMITTER_NAME: "Forge Test",
  GIT_COMMITTER_EMAIL: "test@forge.invalid",
  GIT_AUTHOR_DATE: `${COMMIT_TIME} +0000`,
  GIT_COMMITTER_DATE: `${COMMIT_TIME} +0000`,
  GIT_CONFIG_NOSYSTEM: "1",
};

/** A fresh temp dir; remove it with {@link cleanup}. */
export function tempDir(): Promise<string> {
  return Deno.makeTempDir({ prefix: "forge-review-test-" });
}

/** Remove a temp dir and everything under it. */
export async function cleanup(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}

/** Run git in `cwd` and return stdout; throws with git's stderr when it fails. */
export async function g(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, env: ENV, stdin: "null" }).output();
  const dec = new TextDecoder();
  if (out.code !== 0) {
    throw new Error(`git ${args.join(" ")} in ${cwd} failed: ${dec.decode(out.stderr)}`);
  }
  return dec.decode(out.stdout);
}

/** `git init -b main` plus an identity, in `dir` (created). */
export async function initRepo(dir: string, branch = "main"): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await g(dir, "init", "-q", "-b", branch);
  await g(dir, "config", "user.name", "Forge Test");
  await g(dir, "config", "user.email", "test@forge.invalid");
  return dir;
}

/** Write a file (parents created). */
export async function write(path: string, content: string | Uint8Array): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else await Deno.writeFile(path, content);
}

/** `n` numbered lines, `prefix` in each: "prefix 1\nprefix 2\n...". */
export function lines(n: number, prefix = "line"): string {
  let s = "";
  for (let i = 1; i <= n; i++) s += `${prefix} ${i}\n`;
  return s;
}

/** Commit everything staged or not (`add -A`), returning the new HEAD id. */
export async function commitAll(cwd: string, message: string): Promise<string> {
  await g(cwd, "add", "-A");
  await g(cwd, "commit", "-q", "-m", message);
  return (await g(cwd, "rev-parse", "HEAD")).trim();
}

/**
 * A bare "origin" with `main` holding `files`, and a clone of it at `<dir>/tree` (origin/HEAD
 * set). Returns the clone's path and the bare repo's.
 */
export async function cloneOfBare(
  dir: string,
  files: Record<string, string>,
): Promise<{ tree: string; origin: string; seed: string }> {
  const seed = await initRepo(`${dir}/seed`);
  for (const [p, c] of Object.entries(files)) await write(`${seed}/${p}`, c);
  await commitAll(seed, "base");
  const origin = `${dir}/origin.git`;
  await g(dir, "clone", "-q", "--bare", seed, origin);
  await g(dir, "clone", "-q", origin, `${dir}/tree`);
  const tree = `${dir}/tree`;
  await g(tree, "config", "user.name", "Forge Test");
  await g(tree, "config", "user.email", "test@forge.invalid");
  return { tree, origin, seed };
}

/** Whether a path exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A feature branch two commits ahead of a bare origin, with every uncommitted status. */
export async function featureTree(dir: string): Promise<string> {
  const { tree } = await cloneOfBare(dir, {
    "a.txt": lines(10),
    "keep.txt": lines(5),
    "old.txt": lines(20, "old"),
    "doomed.txt": lines(3),
    "ty.txt": lines(2),
  });
  await g(tree, "checkout", "-q", "-b", "feature");
  await g(tree, "mv", "old.txt", "new.txt");
  await commitAll(tree, "rename old");
  await write(`${tree}/bin.dat`, new Uint8Array([0, 1, 2, 0, 255]));
  await Deno.writeTextFile(`${tree}/a.txt`, lines(12));
  await commitAll(tree, "add binary");
  await Deno.writeTextFile(`${tree}/a.txt`, lines(12).replace("line 1\n", "LINE 1\n"));
  await Deno.remove(`${tree}/doomed.txt`);
  await write(`${tree}/staged.txt`, lines(4, "s"));
  await g(tree, "add", "staged.txt");
  await write(`${tree}/u.txt`, lines(3, "u"));
  await Deno.remove(`${tree}/ty.txt`);
  await Deno.symlink("a.txt", `${tree}/ty.txt`);
  return tree;
}

/**
 * A stand-in `gh` at `<dir>/gh` answering gh's own JSON shapes (gh is not installed here and the
 * network is not reachable): signed in when `<dir>/signed_in` exists, an open draft PR #42 that
 * closes #7 when `<dir>/has_pr` does. `calls` reads back each call's arguments.
 */
export async function fakeGh(dir: string): Promise<{ gh: string; calls: () => string[] }> {
  const gh = `${dir}/gh`;
  const log = `${dir}/gh.log`;
  await Deno.writeTextFile(
    gh,
    `#!/bin/sh
echo "$*" >> '${log}'
case "$1 $2" in
  "--version "*) echo "gh version 2.40.0"; exit 0;;
  "auth status") [ -f '${dir}/signed_in' ] && exit 0
    echo "You are not logged into any GitHub hosts. To log in, run: gh auth login" >&2; exit 1;;
  "pr list") if [ -f '${dir}/has_pr' ]; then
      echo '[{"number":42,"url":"https://example.invalid/o/r/pull/42","isDraft":true}]'
    else echo '[]'; fi;;
  "pr view") echo '{"closingIssuesReferences":[{"id":"x","number":7,"url":"https://example.invalid/o/r/issues/7"}]}';;
  *) exit 2;;
esac
`,
  );
  await Deno.chmod(gh, 0o755);
  const calls = () => {
    try {
      return Deno.readTextFileSync(log).trim().split("\n");
    } catch {
      return [];
    }
  };
  return { gh, calls };
}
