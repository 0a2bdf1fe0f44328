// The keeper's contract (docs/state.md): a write lands whole or not at
// all; a file that does not parse is never read as empty and never overwritten, kept aside,
// reported and refused until mended or removed; a crash's temp files are swept.
import { z } from "zod";
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { memoryLogger } from "../log.ts";
import { type Damage, StateKeeper, StateWriteError, sweepTemps, TEMP_SUFFIX } from "./keeper.ts";
import { KeptLog } from "./kept_log.ts";
import { ioWords, schemaParse } from "./words.ts";

/** The error `fn` rejects with (the test fails when it resolves). */
async function caught(fn: () => Promise<unknown>): Promise<StateWriteError> {
  try {
    await fn();
  } catch (err) {
    assert(err instanceof StateWriteError, String(err));
    return err;
  }
  throw new Error("it did not reject");
}

const Doc = z.object({ n: z.number() }).strict();
const opts = { area: "the test area", parse: schemaParse(Doc, "a test document") };

async function world() {
  const dir = await Deno.makeTempDir({ prefix: "forge-keeper-" });
  const log = memoryLogger();
  const keeper = new StateKeeper(log, () => Date.UTC(2026, 0, 2, 3, 4, 5));
  const seen: Damage[][] = [];
  keeper.onDamage((d) => seen.push(d));
  return {
    dir,
    log,
    keeper,
    seen,
    names: () => [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("a kept file: missing reads as missing, a write lands whole, one handle per path", async () => {
  await using w = await world();
  const file = w.keeper.file(`${w.dir}/a/doc.json`, opts);
  assertEquals(await file.read(), { state: "missing" });
  await file.write({ n: 1 });
  await Promise.all([file.write({ n: 2 }), file.write({ n: 3 })]);
  assertEquals(await file.read(), { state: "read", value: { n: 3 } });
  assertEquals(JSON.parse(await Deno.readTextFile(`${w.dir}/a/doc.json`)), { n: 3 });
  assertEquals([...Deno.readDirSync(`${w.dir}/a`)].map((e) => e.name), ["doc.json"]);
  assert(w.keeper.file(`${w.dir}/a/doc.json`, opts) === file, "the same handle");
});

Deno.test("a file that does not parse is kept aside, reported, refused, and never overwritten", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  for (
    const [bytes, why] of [
      ['{"n": 1', "it is not whole JSON"],
      ['{"n": "one"}', "its content is not a test document (at n)"],
      ["", "it is empty"],
    ] as const
  ) {
    await Deno.writeTextFile(path, bytes);
    const keeper = new StateKeeper(w.log, w.keeper.now);
    const file = keeper.file(path, opts);
    const read = await file.read();
    assertEquals(read.state, "damaged");
    const words = (read as { why: string }).why;
    assertMatch(
      words,
      new RegExp(`doc\\.json did not parse \\(${why.replace(/[()]/g, "\\$&")}\\)`),
    );
    assertMatch(words, /forge kept a copy at .*doc\.json\.corrupt-2026-01-02T03-04-05\.000Z/);
    assertMatch(words, /changes nothing in the test area until the file is mended or removed$/);
    assertEquals(keeper.damaged().map((d) => d.path), [path]);
    const refused = await caught(() => file.write({ n: 9 }));
    assertEquals([refused.reason, refused.message], ["damaged", words]);
    await caught(() => file.writable());
    assertEquals(await Deno.readTextFile(path), bytes);
    await Deno.remove(`${path}.corrupt-2026-01-02T03-04-05.000Z`);
  }
  const records = w.log.records.filter((r) => r.event === "state_file_damaged");
  assertEquals(records.length, 3);
  assertEquals((records[0] as unknown as Damage).path, path);
});

Deno.test("the same damage is kept aside once, however often it is read", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  await Deno.writeTextFile(path, "{");
  const file = w.keeper.file(path, opts);
  await file.read();
  await file.read();
  await new StateKeeper(w.log, () => Date.UTC(2027, 0, 1)).file(path, opts).read();
  assertEquals(w.names(), ["doc.json", "doc.json.corrupt-2026-01-02T03-04-05.000Z"]);
});

Deno.test("mended or removed, a damaged file clears: the fresh read is handed back, writes go", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  await Deno.writeTextFile(path, "garbage");
  const file = w.keeper.file(path, opts);
  await file.read();
  assertEquals(w.seen.at(-1)!.length, 1);
  await Deno.writeTextFile(path, '{"n": 5}');
  assertEquals(await file.writable(), { state: "read", value: { n: 5 } });
  assertEquals([file.damage, w.keeper.damaged(), w.seen.at(-1)], [null, [], []]);
  await file.write({ n: 6 });
  assertEquals(await file.read(), { state: "read", value: { n: 6 } });
  // Damaged again, then removed: the store starts empty.
  await Deno.writeTextFile(path, "garbage again");
  await file.read();
  await Deno.remove(path);
  assertEquals(await file.writable(), { state: "missing" });
  assert(w.log.records.some((r) => r.event === "state_file_mended"));
});

Deno.test("a crash's temp file is swept at boot and at the first read, nowhere else touched", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.dir}/board/Acme/alpha`, { recursive: true });
  await Deno.mkdir(`${w.dir}/worktrees/x`, { recursive: true });
  await Deno.writeTextFile(`${w.dir}/board/cron.json${TEMP_SUFFIX}`, "{half");
  await Deno.writeTextFile(`${w.dir}/board/Acme/alpha/tasks.json${TEMP_SUFFIX}`, "{half");
  await Deno.writeTextFile(`${w.dir}/worktrees/x/notes${TEMP_SUFFIX}`, "the person's own");
  await Deno.writeTextFile(`${w.dir}/board/other.tmp`, "not the keeper's");
  assertEquals(await sweepTemps(w.dir, w.log, [`${w.dir}/worktrees`]), 2);
  assertEquals([...Deno.readDirSync(`${w.dir}/board`)].map((e) => e.name).sort(), [
    "Acme",
    "other.tmp",
  ]);
  assert(Deno.statSync(`${w.dir}/worktrees/x/notes${TEMP_SUFFIX}`).isFile);
  await Deno.writeTextFile(`${w.dir}/doc.json${TEMP_SUFFIX}`, "{half");
  await w.keeper.file(`${w.dir}/doc.json`, opts).read();
  assertEquals(w.names().includes(`doc.json${TEMP_SUFFIX}`), false);
});

Deno.test("a private file is exactly 0600 in a 0700 directory", async () => {
  await using w = await world();
  const path = `${w.dir}/vault/enrolments.json`;
  await w.keeper.file(path, { ...opts, mode: 0o600 }).write({ n: 1 });
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
  assertEquals(Deno.statSync(`${w.dir}/vault`).mode! & 0o777, 0o700);
});

Deno.test("a write refused by the disk is said in forge's words; the old file stands, no temp", async () => {
  await using w = await world();
  const path = `${w.dir}/ro/doc.json`;
  const file = w.keeper.file(path, opts);
  await file.write({ n: 1 });
  // A directory forge may not write to (the tests run as root, which ignores modes: a file
  // where the temp file must go makes the open fail the same way for every user).
  await Deno.mkdir(`${path}${TEMP_SUFFIX}`);
  const failing = caught(() => file.write({ n: 2 }));
  // The failure is its caller's: the file's queue settles without it and takes the next write.
  await w.keeper.flushed();
  const err = await failing;
  assertEquals(err.reason, "io");
  assertMatch(err.message, /doc\.json could not be written: a directory stands where the file/);
  assertEquals(await file.read(), { state: "read", value: { n: 1 } });
  await Deno.remove(`${path}${TEMP_SUFFIX}`);
  await file.write({ n: 3 });
  assertEquals(await file.read(), { state: "read", value: { n: 3 } });
  assert(w.log.records.some((r) => r.event === "state_write_failed"));
  assertEquals(ioWords({ code: "ENOSPC" }), "the disk is full");
});

Deno.test("the append-only log: a torn tail is cut, a damaged line refuses appends", async () => {
  await using w = await world();
  const path = `${w.dir}/requests.jsonl`;
  const line = (v: unknown) => typeof (v as { id?: unknown })?.id === "string";
  await Deno.writeTextFile(path, '{"id":"a"}\n{"id":"b"}\n{"id":"c');
  const log = new KeptLog(w.keeper, path, { area: "the ledger", line, rollBytes: 1 << 20 });
  assertEquals(await log.open(), [{ id: "a" }, { id: "b" }]);
  assert(log.append({ id: "d" }));
  assertEquals(await Deno.readTextFile(path), '{"id":"a"}\n{"id":"b"}\n{"id":"d"}\n');
  await Deno.writeTextFile(path, '{"id":"a"}\nnot a record\n{"id":"b"}\n');
  const again = new KeptLog(w.keeper, path, { area: "the ledger", line, rollBytes: 1 << 20 });
  await again.open();
  assertMatch(again.damage!, /requests\.jsonl did not parse \(a line in it is not a record\)/);
  assertEquals(again.append({ id: "e" }), false);
  assertEquals(await Deno.readTextFile(path), '{"id":"a"}\nnot a record\n{"id":"b"}\n');
  assertEquals(w.keeper.damaged().map((d) => d.area), ["the ledger"]);
  // Rolled past its size to `.1`, one copy deep: the oldest records go.
  await Deno.remove(path);
  await again.open();
  const small = new KeptLog(w.keeper, `${w.dir}/small.jsonl`, { area: "x", line, rollBytes: 20 });
  await small.open();
  for (const id of ["1", "2", "3"]) small.append({ id });
  assertEquals(await small.records(), [{ id: "2" }, { id: "3" }]);
  assertEquals(await Deno.readTextFile(`${w.dir}/small.jsonl`), '{"id":"3"}\n');
});

Deno.test("a file damaged again in another way is kept aside again, and told again", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  const file = w.keeper.file(path, opts);
  await Deno.writeTextFile(path, "{ first");
  await file.read();
  await Deno.writeTextFile(path, "{ second");
  // Same reason (not whole JSON), other bytes: both versions are kept.
  const keeper = new StateKeeper(w.log, () => Date.UTC(2026, 0, 2, 3, 4, 6));
  await keeper.file(path, opts).read();
  const asides = w.names().filter((n) => n.startsWith("doc.json.corrupt-"));
  assertEquals(asides.length, 2);
  assertEquals(w.log.records.filter((r) => r.event === "state_file_damaged").length, 2);
});
