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
  // The torn bytes were cut from the log, never lost: a copy of the file before the cut is kept.
  const aside = w.names().filter((n) => n.startsWith("requests.jsonl.corrupt-"));
  assertEquals(aside.length, 1);
  assertEquals(
    await Deno.readTextFile(`${w.dir}/${aside[0]}`),
    '{"id":"a"}\n{"id":"b"}\n{"id":"c',
  );
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

Deno.test("the append-only log: a whole last record keeps its place; cuts fall on bytes", async () => {
  await using w = await world();
  const line = (v: unknown) => typeof (v as { id?: unknown })?.id === "string";
  const open = (name: string) =>
    new KeptLog(w.keeper, `${w.dir}/${name}`, { area: "the ledger", line, rollBytes: 1 << 20 });
  // A crash between a record and its newline: the record is whole, so it stays and is ended.
  await Deno.writeTextFile(`${w.dir}/whole.jsonl`, '{"id":"a"}\n{"id":"b"}');
  const whole = open("whole.jsonl");
  assertEquals(await whole.open(), [{ id: "a" }, { id: "b" }]);
  assert(whole.append({ id: "c" }));
  assertEquals(
    await Deno.readTextFile(`${w.dir}/whole.jsonl`),
    '{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n',
  );
  assertEquals(w.names().filter((n) => n.startsWith("whole.jsonl.corrupt-")), []);
  // A byte that is not UTF-8 before a torn tail: the cut falls on the last newline's byte, not
  // where a decoded text (the bad byte three bytes long once decoded) would put it; and a line
  // that is not UTF-8 is no record forge wrote, so the log is damaged, not read past it.
  const head = new Uint8Array([...new TextEncoder().encode('{"id":"a'), 0xff, 0x22, 0x7d, 0x0a]);
  await Deno.writeFile(`${w.dir}/bytes.jsonl`, new Uint8Array([...head, 0x7b, 0x22, 0x69]));
  const cut = open("bytes.jsonl");
  assertEquals(await cut.open(), []);
  assertEquals(await Deno.readFile(`${w.dir}/bytes.jsonl`), head);
  assertMatch(cut.damage!, /bytes\.jsonl did not parse/);
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

/** The `state_file_damaged` records the log holds. */
const damagedRecords = (w: { log: ReturnType<typeof memoryLogger> }) =>
  w.log.records.filter((r) => r.event === "state_file_damaged");

Deno.test("a file broken on disk after forge read it is refused at the next change, kept aside, told once", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  const file = w.keeper.file(path, opts);
  assertEquals(await file.read(), { state: "missing" });
  await file.write({ n: 1 });
  assertEquals(await file.writable(), null);
  const broken = '{"n": 1, "hand-edited';
  await Deno.writeTextFile(path, broken);
  // Before a change (the stores' way) and a write asked without one: both refuse, nothing lands.
  const before = await caught(() => file.writable());
  assertEquals(before.reason, "damaged");
  assertMatch(
    before.message,
    /doc\.json did not parse \(it is not whole JSON\); forge kept a copy/,
  );
  assertEquals((await caught(() => file.write({ n: 2 }))).message, before.message);
  await caught(() => file.writable());
  assertEquals(await Deno.readTextFile(path), broken);
  assertEquals(w.names(), ["doc.json", "doc.json.corrupt-2026-01-02T03-04-05.000Z"]);
  assertEquals(damagedRecords(w).length, 1);
  assertEquals(w.keeper.damaged().map((d) => d.path), [path]);
});

Deno.test("a file broken on disk between a change's check and its write is not written over", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  const file = w.keeper.file(path, opts);
  await file.write({ n: 1 });
  assertEquals(await file.writable(), null);
  await Deno.writeTextFile(path, "{");
  const refused = await caught(() => file.write({ n: 2 }));
  assertEquals(refused.reason, "damaged");
  assertEquals(await Deno.readTextFile(path), "{");
  assertEquals(damagedRecords(w).length, 1);
});

Deno.test("a file changed on disk but whole is handed to the store to adopt; a blind write over it is refused", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  const file = w.keeper.file(path, opts);
  await file.write({ n: 1 });
  // A person's edit (a new inode, as an editor's save makes): the store adopts it, then changes.
  await Deno.writeTextFile(`${path}.edit`, '{"n": 7}');
  await Deno.rename(`${path}.edit`, path);
  assertEquals(await file.writable(), { state: "read", value: { n: 7 } });
  await file.write({ n: 8 });
  assertEquals(await file.read(), { state: "read", value: { n: 8 } });
  // Edited in place, then written without asking first: refused, the edit stands, and the next
  // change hands it over.
  await Deno.writeTextFile(path, '{"n": 70}');
  const refused = await caught(() => file.write({ n: 9 }));
  assertEquals(refused.reason, "changed");
  assertMatch(
    refused.message,
    /doc\.json changed on disk since forge read it; forge wrote nothing over it and reads it again before the next change to the test area$/,
  );
  assertEquals(await Deno.readTextFile(path), '{"n": 70}');
  assertEquals(await file.writable(), { state: "read", value: { n: 70 } });
  await file.write({ n: 71 });
  assertEquals(JSON.parse(await Deno.readTextFile(path)), { n: 71 });
  assertEquals([damagedRecords(w).length, w.names()], [0, ["doc.json"]]);
});

Deno.test("a file never read is read before it is written: damaged refuses, whole is handed over", async () => {
  await using w = await world();
  // Asked before a change (a save that replaces the whole file), and written without asking.
  for (const [name, tried] of [["asked", "writable"], ["blind", "write"]] as const) {
    const path = `${w.dir}/${name}.json`;
    await Deno.writeTextFile(path, '{"n": "one"}');
    const file = w.keeper.file(path, opts);
    const refused = await caught(() => tried === "write" ? file.write({ n: 2 }) : file.writable());
    assertEquals(refused.reason, "damaged");
    assertMatch(refused.message, new RegExp(`${name}\\.json did not parse \\(its content is not`));
    assertEquals(await Deno.readTextFile(path), '{"n": "one"}');
  }
  assertEquals(damagedRecords(w).length, 2);
  assertEquals(w.names(), [
    "asked.json",
    "asked.json.corrupt-2026-01-02T03-04-05.000Z",
    "blind.json",
    "blind.json.corrupt-2026-01-02T03-04-05.000Z",
  ]);
  const wholePath = `${w.dir}/whole.json`;
  await Deno.writeTextFile(wholePath, '{"n": 3}');
  const whole = w.keeper.file(wholePath, opts);
  assertEquals(await whole.writable(), { state: "read", value: { n: 3 } });
  await whole.write({ n: 4 });
  assertEquals(JSON.parse(await Deno.readTextFile(wholePath)), { n: 4 });
});

Deno.test("a missing file is written: never made, or removed after a read", async () => {
  await using w = await world();
  const fresh = w.keeper.file(`${w.dir}/new/doc.json`, opts);
  assertEquals(await fresh.writable(), null);
  await fresh.write({ n: 1 });
  assertEquals(JSON.parse(await Deno.readTextFile(`${w.dir}/new/doc.json`)), { n: 1 });
  // Removed after forge read it: the store keeps what it holds and writes it back.
  await Deno.remove(`${w.dir}/new/doc.json`);
  assertEquals(await fresh.writable(), null);
  await fresh.write({ n: 2 });
  assertEquals(JSON.parse(await Deno.readTextFile(`${w.dir}/new/doc.json`)), { n: 2 });
  assertEquals(damagedRecords(w).length, 0);
});

/** Rewrites `path` in place with `text` (the same size) and puts back its inode's times. */
async function sameStatEdit(path: string, text: string) {
  const before = await Deno.stat(path);
  assertEquals(new TextEncoder().encode(text).length, before.size, "a same-size edit");
  await Deno.writeTextFile(path, text);
  await Deno.utime(path, before.atime!, before.mtime!);
  const after = await Deno.stat(path);
  assertEquals([after.ino, after.size, after.mtime], [before.ino, before.size, before.mtime]);
}

// The stat (inode, size, modification time) cannot see a same-size edit in place within the tick
// of forge's own write; the digest of the bytes forge last read or wrote does.
Deno.test("a same-size edit in place with forge's own stat is still seen: adopted, or refused", async () => {
  await using w = await world();
  const path = `${w.dir}/doc.json`;
  await Deno.writeTextFile(path, '{"n": 1}');
  const file = w.keeper.file(path, opts);
  assertEquals(await file.read(), { state: "read", value: { n: 1 } });
  for (const n of [2, 3]) {
    assertEquals(await file.writable(), null, "an untouched file is written as held");
    await file.write({ n });
  }
  // A whole edit: a blind write is refused and the next change adopts it.
  await sameStatEdit(path, '{"n":9}');
  assertEquals((await caught(() => file.write({ n: 4 }))).reason, "changed");
  assertEquals(await file.writable(), { state: "read", value: { n: 9 } });
  await file.write({ n: 5 });
  // Bytes that do not parse: the change is refused as damage, the bytes kept.
  await sameStatEdit(path, "{garbag");
  assertEquals((await caught(() => file.writable())).reason, "damaged");
  assertEquals(await Deno.readTextFile(path), "{garbag");
  assertEquals(damagedRecords(w).length, 1);
});
