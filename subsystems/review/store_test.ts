// spec: subscribe's `review` flag - "every other read of a seat that has a session serves the
// stores"; session rows `work`, `git`, `diff`, `file_index`. A warm seat's subscribe runs no git:
// the count of git processes (git.ts) does not move, and what it answers is what a fresh read of
// the same tree answers. A seat with no session has no watch to keep its stores: it reads now.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import type { Slot, Wire } from "../../protocol/mod.ts";
import { BaseStore } from "./base.ts";
import { gitSpawns } from "./git.ts";
import { create } from "./mod.ts";
import { readRecord } from "./record.ts";
import {
  cleanup,
  commitAll,
  g,
  initRepo,
  lines,
  tempDir,
  write,
} from "../../tests/review_support.ts";
import { reviewHost } from "../../tests/review_host.ts";

const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };

const hostFor = (cwd: string, stateDir: string, session: () => string | null) =>
  reviewHost(SLOT, cwd, stateDir, session);

/** A feature branch one commit ahead of a local main, with a modified and an untracked file. */
async function localBaseTree(dir: string): Promise<string> {
  const repo = await initRepo(`${dir}/tree`);
  await write(`${repo}/a.txt`, lines(10));
  await commitAll(repo, "base");
  await g(repo, "checkout", "-q", "-b", "feature");
  await write(`${repo}/b.txt`, lines(4, "b"));
  await commitAll(repo, "feature work");
  await write(`${repo}/a.txt`, lines(12));
  await write(`${repo}/u.txt`, lines(2, "u"));
  return repo;
}

type Fields = Record<string, Wire>;

Deno.test("review stores: a warm seat with a session subscribes without one git process", async () => {
  const dir = await tempDir();
  const tree = await localBaseTree(dir);
  const sub = create(hostFor(tree, `${dir}/state`, () => "session-1").host);
  try {
    const before = gitSpawns();
    const first = (await sub.sessionFields!(SLOT, { review: false })) as Fields;
    const cold = gitSpawns() - before;
    equal(cold > 0, true, "the first read scans the tree");

    const at = gitSpawns();
    const second = (await sub.sessionFields!(SLOT, { review: false })) as Fields;
    equal(gitSpawns() - at, 0, "a warm ordinary subscribe runs no git");
    deepStrictEqual(second, first);
    // What the store answers is what a fresh read of the same tree answers.
    const fresh = await readRecord(tree, {
      baseStore: new BaseStore(),
      review: false,
      hasSession: true,
    });
    deepStrictEqual([second.work, second.git, second.diff], [fresh.work, fresh.git, fresh.diff]);
    deepStrictEqual([fresh.diff.base, fresh.diff.base_error], ["unverified", null]);

    // The review page's own read keeps the flag's rules: a local base answers `local`, read
    // from the stored scan's own refs rather than a probe.
    const r = gitSpawns();
    const review = (await sub.sessionFields!(SLOT, { review: true })) as Fields;
    equal(gitSpawns() - r, 0, "a warm review-scoped subscribe of a local base runs no git");
    const diff = review.diff as { base: string; base_error: null };
    deepStrictEqual([diff.base, diff.base_error], ["local", null]);
    deepStrictEqual((review.git as { base: string }).base, "local");
    // ... and the ordinary read after it goes back to unverified beside the branch layer.
    const after = (await sub.sessionFields!(SLOT, { review: false })) as Fields;
    equal((after.diff as { base: string }).base, "unverified");
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});

Deno.test("review stores: a write is news - the watch's own scan is what the next subscribe serves", async () => {
  const dir = await tempDir();
  const tree = await localBaseTree(dir);
  const { host, next } = hostFor(tree, `${dir}/state`, () => "session-1");
  const sub = create(host);
  try {
    await sub.sessionFields!(SLOT, { review: false });
    const pushed = next("work_changed");
    await write(`${tree}/fresh.txt`, "a line the store has not seen\n");
    await pushed;
    const at = gitSpawns();
    const fields = (await sub.sessionFields!(SLOT, { review: false })) as Fields;
    equal(gitSpawns() - at, 0, "the watch pass's scan and patches answer the subscribe");
    const text = JSON.stringify(fields.diff);
    equal(text.includes("a line the store has not seen"), true);
    equal(JSON.stringify(fields.file_index).includes("fresh.txt"), true);
    const fresh = await readRecord(tree, {
      baseStore: new BaseStore(),
      review: false,
      hasSession: true,
    });
    deepStrictEqual([fields.work, fields.diff], [fresh.work, fresh.diff]);
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});

Deno.test("review stores: a seat with no session reads the tree on every subscribe", async () => {
  const dir = await tempDir();
  const tree = await localBaseTree(dir);
  const sub = create(hostFor(tree, `${dir}/state`, () => null).host);
  try {
    await sub.sessionFields!(SLOT, { review: false });
    const at = gitSpawns();
    const again = (await sub.sessionFields!(SLOT, { review: false })) as Fields;
    equal(gitSpawns() - at > 0, true, "no session, no stores: the record scans");
    equal((again.work as { changed: number }).changed, 2);
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});
