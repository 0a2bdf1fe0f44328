import { assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { memoryLogger } from "../log.ts";
import { StateKeeper } from "../state/keeper.ts";
import { WorkerBook, type WorkerRecord } from "./book.ts";

const LEAD = { org: "Acme", project: "alpha", label: "lead" };

function worker(label: string, charter: string): WorkerRecord {
  return {
    slot: { ...LEAD, label },
    charter,
    kick: null,
    resume_kick: null,
    interactive: false,
    mcp_families: null,
    worktree: `wt/${label}`,
    spawned_by: LEAD,
    live: true,
  };
}

async function onDisk(book: WorkerBook): Promise<Record<string, WorkerRecord>> {
  return JSON.parse(await Deno.readTextFile(book.path));
}

Deno.test("worker book: changes queued together land one at a time, in order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-book-" });
  try {
    const book = new WorkerBook(new StateKeeper(memoryLogger()), dir);
    await book.load();
    await Promise.all([
      book.set(worker("w1", "first")),
      book.set(worker("w2", "second")),
      book.set(worker("w1", "first, again")),
    ]);
    const charters = book.all().map((r) => [r.slot.label, r.charter]);
    assertEquals(charters, [["w1", "first, again"], ["w2", "second"]]);
    const disk = await onDisk(book);
    assertEquals(Object.values(disk).map((r) => [r.slot.label, r.charter]), charters);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("worker book: a refused change moves nothing and the next one still lands", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-book-" });
  try {
    await Deno.writeTextFile(`${dir}/workers.json`, '{"half": [1, 2');
    const book = new WorkerBook(new StateKeeper(memoryLogger()), dir);
    assertEquals(await book.load(), []);
    // Two changes queued on the damaged book: each is refused in its own turn, in words.
    const first = book.set(worker("w1", "refused"));
    const second = book.set(worker("w2", "refused too"));
    await assertRejects(() => first, /the workers/);
    await assertRejects(() => second, /the workers/);
    assertEquals(book.all(), []);
    assertMatch(String(book.damage), /the workers/);
    // Mended by hand: the queue was not wedged by the refusals, and the mended rows are kept.
    await Deno.writeTextFile(
      book.path,
      JSON.stringify({ "Acme/alpha/w0": worker("w0", "mended") }),
    );
    await book.set(worker("w3", "lands"));
    assertEquals(book.all().map((r) => r.charter), ["mended", "lands"]);
    assertEquals(Object.keys(await onDisk(book)), ["Acme/alpha/w0", "Acme/alpha/w3"]);
    assertEquals(book.damage, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
