// spec: subscribe's `review` flag and the `diff`/`git` rows' base - a four-minute window, a
// throttled background fetch with an explicit refspec, a seat with no session waits, a local
// base runs no fetch, base_error is git's own first line.
import { deepStrictEqual, match, strictEqual as equal } from "node:assert/strict";
import { BASE_WINDOW_MS, BaseStore, type BaseTarget } from "./base.ts";
import { scanTree } from "./scan.ts";
import {
  cleanup,
  cloneOfBare,
  commitAll,
  g,
  initRepo,
  tempDir,
  write,
} from "../../tests/review_support.ts";

function target(cwd: string, remote_tracking = true): BaseTarget {
  return { cwd, branch: "main", remote: "origin", remote_tracking };
}

Deno.test("base: a session's review read answers at once and its kicked fetch answers the next", async () => {
  const dir = await tempDir();
  try {
    const { tree, seed, origin } = await cloneOfBare(dir, { "a.txt": "a\n" });
    // origin moves on after the clone: the refresh must bring the tracking ref to it.
    await write(`${seed}/b.txt`, "b\n");
    const tip = await commitAll(seed, "upstream");
    await g(seed, "push", "-q", origin, "main");
    let now = 0;
    const measured: string[] = [];
    const store = new BaseStore({ now: () => now, onMeasured: (cwd) => measured.push(cwd) });
    deepStrictEqual(store.latest(tree), { base: null, base_error: null });
    deepStrictEqual(await store.reviewRead(target(tree), true), {
      base: "unverified",
      base_error: null,
    });
    await store.settled(tree);
    deepStrictEqual(measured, [tree]);
    equal((await g(tree, "rev-parse", "refs/remotes/origin/main")).trim(), tip);
    deepStrictEqual(store.latest(tree), { base: "current", base_error: null });
    deepStrictEqual(await store.reviewRead(target(tree), true), {
      base: "current",
      base_error: null,
    });
    await store.settled(tree);
    equal(measured.length, 1); // inside the throttle: no second fetch
    // Past the window a held measurement is ignored: unverified again, and a new check kicked.
    now += BASE_WINDOW_MS + 1;
    deepStrictEqual(await store.reviewRead(target(tree), true), {
      base: "unverified",
      base_error: null,
    });
    await store.settled(tree);
    equal(measured.length, 2);
    deepStrictEqual(store.ordinaryRead(), { base: "unverified", base_error: null });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("base: a seat with no session waits; a fetch that cannot run carries git's words for the window", async () => {
  const dir = await tempDir();
  try {
    const { tree, origin } = await cloneOfBare(dir, { "a.txt": "a\n" });
    let now = 0;
    let fetches = 0;
    const store = new BaseStore({ now: () => now, onMeasured: () => fetches++ });
    deepStrictEqual(await store.reviewRead(target(tree), false), {
      base: "current",
      base_error: null,
    });
    equal(fetches, 1);
    await Deno.rename(origin, `${origin}.moved`); // the remote is unreachable now
    now += 60_000; // past the throttle
    const failed = await store.reviewRead(target(tree), false);
    equal(failed.base, "unverified");
    match(failed.base_error!, /^fatal: .*origin\.git.* does not appear to be a git repository$/);
    equal(fetches, 2);
    // A failed check is answered for the window rather than retried on the next open.
    now += 60_000;
    deepStrictEqual(await store.reviewRead(target(tree), true), failed);
    deepStrictEqual(await store.reviewRead(target(tree), false), failed);
    await store.settled(tree);
    equal(fetches, 2);
    deepStrictEqual(store.latest(tree), failed);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("base: a base with no remote-tracking ref runs no fetch and answers local", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a`, "a\n");
    await commitAll(repo, "one");
    await g(repo, "remote", "add", "origin", `${dir}/never-fetched.git`);
    let fetches = 0;
    const store = new BaseStore({ onMeasured: () => fetches++ });
    store.kick(target(repo, false));
    await store.settled(repo);
    deepStrictEqual(await store.reviewRead(target(repo, false), false), {
      base: "local",
      base_error: null,
    });
    deepStrictEqual(await store.reviewRead(target(repo, false), true), {
      base: "local",
      base_error: null,
    });
    equal(fetches, 0);
    deepStrictEqual(store.latest(repo), { base: "local", base_error: null });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("base: a scan kicks the refresh and carries the last measurement on the git row", async () => {
  const dir = await tempDir();
  try {
    const { tree } = await cloneOfBare(dir, { "a.txt": "a\n" });
    await g(tree, "checkout", "-q", "-b", "feature");
    await write(`${tree}/b.txt`, "b\n");
    await commitAll(tree, "ahead");
    const store = new BaseStore();
    const first = await scanTree(tree, { baseStore: store });
    equal(first.git!.base, null); // the kick never waits
    await store.settled(tree);
    const second = await scanTree(tree, { baseStore: store });
    deepStrictEqual([second.git!.base, second.git!.base_error], ["current", null]);
    equal(second.git!.ahead!.commit_count, 1);
  } finally {
    await cleanup(dir);
  }
});
