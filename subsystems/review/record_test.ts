// spec: subscribe's `review` flag - an ordinary record read answers unverified beside a branch
// layer and checks nothing; a review read of a seat with no session runs the refresh and waits;
// with a session it answers at once and the kicked check answers the next read.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { BaseStore } from "./base.ts";
import { readDiff } from "./diff.ts";
import { DiffBudget } from "./diff_parse.ts";
import { readRecord } from "./record.ts";
import { scanTree } from "./scan.ts";
import {
  cleanup,
  commitAll,
  featureTree,
  g,
  initRepo,
  tempDir,
  write,
} from "../../tests/review_support.ts";

Deno.test("record: ordinary, review-with-session and review-without-session reads of the base", async () => {
  const dir = await tempDir();
  try {
    const tree = await featureTree(dir);
    let fetches = 0;
    const store = new BaseStore({ onMeasured: () => fetches++ });
    const ordinary = await readRecord(tree, { baseStore: store, review: false, hasSession: true });
    deepStrictEqual(ordinary.work, { branch: "feature", changed: 5, gate: "in_repo" });
    equal(ordinary.git!.ahead!.commit_count, 2);
    deepStrictEqual([ordinary.diff.base, ordinary.diff.base_error], ["unverified", null]);
    equal(typeof ordinary.diff.branch_ahead === "object", true);
    // The record reuses the scan's own patches; the diff is the one a separate read takes.
    const separate = await readDiff(tree, await scanTree(tree), store.ordinaryRead());
    deepStrictEqual(ordinary.diff, separate);
    await store.settled(tree); // the scan's own kick
    equal(fetches, 1);
    // The scan kicked a check; an ordinary read still answers unverified, the git row current.
    const again = await readRecord(tree, { baseStore: store, review: false, hasSession: true });
    deepStrictEqual([again.diff.base, again.git!.base], ["unverified", "current"]);

    const fresh = new BaseStore();
    // A stored scan taken without the store: nothing has kicked a check before this read.
    const stored = await scanTree(tree);
    const session = await readRecord(tree, {
      baseStore: fresh,
      review: true,
      hasSession: true,
      scan: stored,
    });
    deepStrictEqual([session.diff.base, session.diff.base_error], ["unverified", null]);
    await fresh.settled(tree);
    const next = await readRecord(tree, { baseStore: fresh, review: true, hasSession: true });
    deepStrictEqual([next.diff.base, next.git!.base], ["current", "current"]);

    const noSession = await readRecord(tree, {
      baseStore: new BaseStore(),
      review: true,
      hasSession: false,
    });
    deepStrictEqual([noSession.diff.base, noSession.diff.base_error, noSession.git!.base], [
      "current",
      null,
      "current",
    ]);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("record: no branch layer means no base; a stored scan is reused as given", async () => {
  const dir = await tempDir();
  try {
    const repo = await initRepo(`${dir}/r`);
    await write(`${repo}/a`, "a\n");
    await commitAll(repo, "one");
    await write(`${repo}/a`, "b\n");
    const store = new BaseStore();
    const r = await readRecord(repo, { baseStore: store, review: true, hasSession: false });
    deepStrictEqual([r.diff.branch_ahead, r.diff.base, r.diff.base_error], [null, null, null]);
    equal(r.work.changed, 1);
    await write(`${repo}/new`, "n\n");
    const reused = await readRecord(repo, {
      baseStore: store,
      review: false,
      hasSession: true,
      scan: r.scan,
    });
    equal(reused.work.changed, 1);
    equal(reused.scan, r.scan);
  } finally {
    await cleanup(dir);
  }
});

Deno.test("record: files parsed while git writes spend the read's budget as a parse after it", async () => {
  const dir = await tempDir();
  try {
    const tree = await featureTree(dir);
    const unborn = await initRepo(`${dir}/unborn`);
    await write(`${unborn}/staged.txt`, "s\n");
    await g(unborn, "add", "staged.txt");
    await write(`${unborn}/loose.txt`, "l\n");
    // The spec's caps, caps that stop the worktree layer mid-way, and ones that leave the branch
    // layer only what the worktree's files left.
    for (const caps of [[100, 512 * 1024], [2, 40], [6, 10]] as const) {
      for (const cwd of [tree, unborn]) {
        const budget = new DiffBudget(...caps);
        const r = await readRecord(cwd, {
          baseStore: new BaseStore(),
          review: false,
          hasSession: false,
          budget,
        });
        const after = new DiffBudget(...caps);
        const separate = await readDiff(cwd, await scanTree(cwd), {
          base: "unverified",
          base_error: null,
        }, after);
        deepStrictEqual(r.diff, separate, `${cwd} under ${caps}`);
        deepStrictEqual([budget.files, budget.bytes], [after.files, after.bytes]);
      }
    }
  } finally {
    await cleanup(dir);
  }
});
