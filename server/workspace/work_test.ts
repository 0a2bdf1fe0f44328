import { assertEquals } from "../../tests/assert.ts";
import { FRESH_MS, readWork, scanWork, statusGlance, STEADY_MS, WorkGlances } from "./work.ts";

async function git(cwd: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@forge.invalid", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/** A repository on `main` with one commit and `a.txt`. */
async function repo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "forge-work-" });
  await Deno.writeTextFile(`${dir}/a.txt`, "one\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "first");
  return dir;
}

Deno.test("the glance names the branch, counts changed and untracked files, and the gate", async () => {
  const dir = await repo();
  const outside = await Deno.makeTempDir({ prefix: "forge-work-plain-" });
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "two\n");
    await Deno.writeTextFile(`${dir}/new.txt`, "new\n");
    await git(dir, "checkout", "-q", "-b", "feature");
    assertEquals(await readWork(dir), { branch: "feature", changed: 2, gate: "in_repo" });
    assertEquals(await readWork(outside), {
      branch: null,
      changed: null,
      gate: "not_a_repository",
    });
    assertEquals(await readWork(`${outside}/nothing`), {
      branch: null,
      changed: null,
      gate: "gone",
    });
    await git(dir, "checkout", "-q", "--detach");
    assertEquals((await new WorkGlances().glance(dir, true)).branch, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("porcelain v2: a rename is one change and its original path is not another", () => {
  const out = [
    "# branch.oid 0123",
    "# branch.head main",
    "1 .M N... 100644 100644 100644 aa bb a.txt",
    "2 R. N... 100644 100644 100644 aa bb R100 new name.txt",
    "old name.txt",
    "u UU N... 100644 100644 100644 100644 aa bb cc both.txt",
    "? untracked.txt",
    "",
  ].join("\0");
  assertEquals(statusGlance(out), { branch: "main", changed: 4 });
});

Deno.test("a quiet tree's glance is reused until git or the top moves, or the steady window ends", async () => {
  const dir = await repo();
  let now = 0;
  let reads = 0;
  const glances = new WorkGlances(() => now, (path) => {
    reads++;
    return scanWork(path);
  });
  try {
    await glances.glance(dir, false);
    assertEquals(reads, 1);
    // An edit git has not looked at moves no fingerprint: reused within the steady window.
    await Deno.writeTextFile(`${dir}/a.txt`, "edited\n");
    now += FRESH_MS + 1;
    await glances.glance(dir, false);
    assertEquals(reads, 1);
    // A live seat's tree is read again once the fresh window has passed.
    await glances.glance(dir, true);
    assertEquals(reads, 2);
    // Staging writes git's index: the fingerprint moves and the quiet glance is read at once.
    now += FRESH_MS + 1;
    await git(dir, "add", "a.txt");
    await glances.glance(dir, false);
    assertEquals(reads, 3);
    // A checkout writes HEAD alone (the index holds the same tree): read at once too.
    now += FRESH_MS + 1;
    await git(dir, "checkout", "-q", "-b", "other");
    assertEquals((await glances.glance(dir, false)).branch, "other");
    assertEquals(reads, 4);
    // A commit moves the branch and the index.
    now += FRESH_MS + 1;
    await git(dir, "commit", "-q", "-m", "second");
    assertEquals((await glances.glance(dir, false)).changed, 0);
    assertEquals(reads, 5);
    // Past the steady window a quiet glance is read again even with nothing moved.
    now += FRESH_MS + 1;
    await glances.glance(dir, false);
    assertEquals(reads, 5);
    now += STEADY_MS;
    await glances.glance(dir, false);
    assertEquals(reads, 6);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
