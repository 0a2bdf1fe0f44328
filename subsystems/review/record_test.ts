// spec: subscribe's `review` flag - an ordinary record read answers unverified beside a branch
// layer and checks nothing; a review read of a seat with no session runs the refresh and waits;
// with a session it answers at once and the kicked check answers the next read.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import { BaseStore } from "./base.ts";
import { readDiff } from "./diff.ts";
import { DiffBudget, type ParsedFiles } from "./diff_parse.ts";
import { readRecord } from "./record.ts";
import { scanTree, scanWithPatches } from "./scan.ts";
import type { LayerState } from "./wire.ts";
import { gitSpawns } from "./git.ts";
import {
  cleanup,
  cloneOfBare,
  commitAll,
  featureTree,
  g,
  initRepo,
  tempDir,
  write,
} from "../../tests/review_support.ts";

const UNVERIFIED = { base: "unverified" as const, base_error: null };

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

// The spec's caps, caps that stop the worktree layer mid-way, ones that leave the branch layer
// only what the worktree's files left, and ones that stop the branch layer mid-file.
const CAPS = [[100, 512 * 1024], [2, 40], [6, 10], [7, 200], [100, 200], [100, 240]] as const;

Deno.test("record: files parsed while git writes spend the read's budget as a parse after it", async () => {
  const dir = await tempDir();
  try {
    const unborn = await initRepo(`${dir}/unborn`);
    await write(`${unborn}/staged.txt`, "s\n");
    await g(unborn, "add", "staged.txt");
    await write(`${unborn}/loose.txt`, "l\n");
    for (const [i, caps] of CAPS.entries()) {
      // A tree of its own for each read: a tree whose HEAD and base stay reuses its last walk of
      // the branch layer, which runs no diff, so its files would not be parsed while git writes.
      const tree = await featureTree(`${dir}/${i}`);
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

/** A populated layer's files, or a failure naming what the layer was. */
function populated(l: LayerState | null): ParsedFiles {
  if (l === null || typeof l === "string") throw new Error(`layer is ${l}, not populated`);
  return l.populated;
}

Deno.test("record: both layers parsed while git writes are taken as parsed, not parsed again", async () => {
  const dir = await tempDir();
  try {
    const cut = { worktree: false, files: false, bytes: false, whole: false };
    for (const [i, caps] of CAPS.entries()) {
      const tree = await featureTree(`${dir}/${i}`);
      const budget = new DiffBudget(...caps);
      const { scan, patches } = await scanWithPatches(tree, { rows: budget });
      const diff = await readDiff(tree, scan, UNVERIFIED, budget, patches);
      // The read carries the very files the scan parsed: neither layer was parsed again.
      equal(populated(diff.worktree), patches.worktree_rows!.parsed, `worktree under ${caps}`);
      equal(populated(diff.branch_ahead), patches.branch_rows!.parsed, `branch under ${caps}`);
      // And they, and the budget they spent, are what a parse after the scan gives.
      const after = new DiffBudget(...caps);
      deepStrictEqual(diff, await readDiff(tree, await scanTree(tree), UNVERIFIED, after));
      deepStrictEqual([budget.files, budget.bytes], [after.files, after.bytes], `${caps}`);
      const wt = populated(diff.worktree);
      const br = populated(diff.branch_ahead);
      cut.worktree ||= wt.files_capped || wt.bytes_capped;
      cut.files ||= br.files_capped;
      cut.bytes ||= br.bytes_capped && br.files.some((f) => f.lines.length > 0);
      cut.whole ||= !br.files_capped && !br.bytes_capped;
    }
    // The caps cut each layer somewhere: the worktree's, the branch's files and its bytes
    // mid-file; and one read carries the branch layer whole.
    deepStrictEqual(cut, { worktree: true, files: true, bytes: true, whole: true });
  } finally {
    await cleanup(dir);
  }
});

Deno.test("record: an empty layer diff is kept - a re-scan and its read run neither again", async () => {
  const dir = await tempDir();
  try {
    // Two commits ahead that net to nothing, and only an untracked file in the tree: both
    // layers' diffs are empty.
    const { tree } = await cloneOfBare(dir, { "a.txt": "a\n" });
    await g(tree, "checkout", "-q", "-b", "feature");
    await write(`${tree}/a.txt`, "b\n");
    await commitAll(tree, "change");
    await g(tree, "revert", "--no-edit", "HEAD");
    await write(`${tree}/u.txt`, "u\n");
    const first = await scanWithPatches(tree);
    equal(first.scan.git!.ahead!.commit_count, 2);
    deepStrictEqual([first.patches.worktree?.length, first.patches.branch?.length], [0, 0]);
    let before = gitSpawns();
    const { scan, patches } = await scanWithPatches(tree);
    equal(gitSpawns() - before, 2, "the re-scan runs its diff and its status, no branch walk");
    before = gitSpawns();
    const diff = await readDiff(tree, scan, UNVERIFIED, new DiffBudget(), patches);
    equal(gitSpawns() - before, 0, "the read reuses both empty diffs");
    deepStrictEqual(diff, await readDiff(tree, scan, UNVERIFIED));
    equal(diff.branch_ahead, "clean");
    deepStrictEqual(populated(diff.worktree).files.map((f) => [f.path, f.status]), [
      ["u.txt", "untracked"],
    ]);
  } finally {
    await cleanup(dir);
  }
});
