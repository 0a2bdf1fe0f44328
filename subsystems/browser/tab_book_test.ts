// The tab book: each seat's open tabs per profile kept in the state dir across forge's runs (an
// extension); docs/state.md: a file that does not parse is kept aside, never read as empty and
// never written over; a person's edit is taken in, not written over.
import { assertEquals } from "../../tests/assert.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { TabBook } from "./tab_book.ts";

/** Each open is a new process: a keeper of its own. */
async function open(dir: string) {
  const log = memoryLogger();
  const book = new TabBook(new StateKeeper(log), dir, log);
  await book.ready;
  return { book, log };
}

const lead = "Acme/alpha/lead";
const two = { urls: ["http://127.0.0.1:1/a", "http://127.0.0.1:1/b"], active: 1 };

Deno.test("tab book: what is recorded is read by the next run; a session's end lets it go", async () => {
  const dir = await Deno.makeTempDir();
  const first = await open(dir);
  first.book.record("Acme/default", { [lead]: two });
  await first.book.flushed();
  const second = await open(dir);
  assertEquals(second.book.of("Acme/default")[lead], two);
  second.book.forget("Acme/default", lead);
  await second.book.flushed();
  assertEquals((await open(dir)).book.of("Acme/default")[lead], undefined);
});

Deno.test("tab book: a file that does not parse reopens nothing and is never written over", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/browser_tabs.json`;
  await Deno.writeTextFile(path, '{"Acme/default": {"Acme/alpha/lead": {"urls": [1');
  const { book, log } = await open(dir);
  assertEquals(book.of("Acme/default"), {});
  book.record("Acme/default", { [lead]: two });
  await book.flushed();
  assertEquals(await Deno.readTextFile(path), '{"Acme/default": {"Acme/alpha/lead": {"urls": [1');
  assertEquals(log.records.filter((r) => r.event === "browser_tabs_not_kept").length, 1);
});

Deno.test("tab book: a person's edit to the file is taken in under the next change", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/browser_tabs.json`;
  const { book } = await open(dir);
  book.record("Acme/default", { [lead]: two });
  await book.flushed();
  const edited = { "Acme/work": { [lead]: { urls: ["http://127.0.0.1:1/w"], active: 0 } } };
  await Deno.writeTextFile(
    path,
    JSON.stringify({ ...JSON.parse(await Deno.readTextFile(path)), ...edited }),
  );
  book.record("Acme/default", { [lead]: { urls: ["http://127.0.0.1:1/c"], active: 0 } });
  await book.flushed();
  assertEquals(JSON.parse(await Deno.readTextFile(path)), {
    "Acme/default": { [lead]: { urls: ["http://127.0.0.1:1/c"], active: 0 } },
    ...edited,
  });
});
