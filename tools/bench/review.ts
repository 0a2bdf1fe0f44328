import { BaseStore } from "../../subsystems/review/base.ts";
import { readDiff } from "../../subsystems/review/diff.ts";
import { readRecord } from "../../subsystems/review/record.ts";
import { scanTree } from "../../subsystems/review/scan.ts";
import {
  cleanup,
  cloneOfBare,
  commitAll,
  g,
  lines,
  tempDir,
  write,
} from "../../subsystems/review/test_support.ts";

/**
 * The review record read (work + git + diff: one scan, the base answer, both diff layers) on a
 * tree with 200 changed files, beside `git diff` alone on the same tree, printed as a ratio.
 * The tree: 400 files x 300 lines cloned from a bare origin, a feature branch 5 commits ahead,
 * 200 files modified (3 changed lines each) and one untracked file. An ordinary read: no fetch.
 *
 *   deno task bench review [--runs 15]
 */
const arg = (name: string, def: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : def;
};
const RUNS = arg("--runs", 15);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm: page cache, JIT
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const dir = await tempDir();
try {
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) {
    files[`src/m${String(i).padStart(3, "0")}/f${i}.txt`] = lines(300, `file ${i}`);
  }
  const { tree } = await cloneOfBare(dir, files);
  await g(tree, "checkout", "-q", "-b", "feature");
  for (let c = 0; c < 5; c++) {
    await write(`${tree}/feature/c${c}.txt`, lines(40, `commit ${c}`));
    await commitAll(tree, `feature commit ${c}`);
  }
  for (let i = 0; i < 200; i++) {
    const p = `${tree}/src/m${String(i).padStart(3, "0")}/f${i}.txt`;
    const body = lines(300, `file ${i}`)
      .replace(`file ${i} 10\n`, `changed ${i} 10\n`)
      .replace(`file ${i} 150\n`, `changed ${i} 150\n`)
      .replace(`file ${i} 290\n`, `changed ${i} 290\n`);
    await Deno.writeTextFile(p, body);
  }
  await write(`${tree}/untracked.txt`, lines(20, "new"));
  // As a lived-in tree: no racily-clean index entries (every read would re-hash those files).
  await new Promise((r) => setTimeout(r, 1100));
  await g(tree, "status", "--porcelain");

  const store = new BaseStore();
  const gitDiff = () =>
    new Deno.Command("git", { args: ["diff"], cwd: tree, stdout: "piped", stderr: "piped" })
      .output();
  const probe = await gitDiff();
  const record = await readRecord(tree, { baseStore: store, review: false, hasSession: true });
  await store.settled(tree);
  const wt = record.diff.worktree;
  const carried = typeof wt === "object" ? wt.populated.files.length : 0;
  console.log(
    `tree: ${record.work.changed} changed, ${record.git?.ahead?.commit_count} commits ahead, ` +
      `git diff ${probe.stdout.length} bytes, record carries ${carried} worktree files`,
  );

  // One store for the whole run, as the server has: its throttle keeps the scan's kick from
  // fetching on every read (the check above already landed).
  const read = () => readRecord(tree, { baseStore: store, review: false, hasSession: true });
  // Interleaved pairs, so a machine whose load drifts weighs on both sides of each ratio alike.
  await read();
  await gitDiff();
  const plain: number[] = [];
  const full: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? [gitDiff, read] : [read, gitDiff];
    const t: number[] = [];
    for (const fn of order) {
      const t0 = performance.now();
      await fn();
      t.push(performance.now() - t0);
    }
    const [p, f] = i % 2 ? [t[0], t[1]] : [t[1], t[0]];
    plain.push(p);
    full.push(f);
    ratios.push(f / p);
  }
  const scan = await time(() => scanTree(tree, { baseStore: store }));
  const s = await scanTree(tree);
  const diffOnly = await time(() => readDiff(tree, s, { base: "unverified", base_error: null }));

  console.log(`runs: ${RUNS} (median ms)`);
  console.log(`git diff alone:                ${median(plain).toFixed(1)} ms`);
  console.log(`record read (work+git+diff):   ${median(full).toFixed(1)} ms`);
  console.log(`  scan alone (work + git rows): ${median(scan).toFixed(1)} ms`);
  console.log(
    `  diff rows from a taken scan:  ${median(diffOnly).toFixed(1)} ms (runs its own git diffs)`,
  );
  console.log(
    `ratio record / git diff:       ${median(ratios).toFixed(2)}x (median of paired ratios)`,
  );
} finally {
  await cleanup(dir);
}
