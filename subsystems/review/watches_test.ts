// spec: session rows `work`, `git`, `file_index` ("the seat's change watch"); subscribe,
// unsubscribe. A seat's watch runs while someone holds its session subject: the last holder
// leaving (an unsubscribe or a closed connection) or the seat leaving the workspace ends it, and
// a later subscribe starts a new one over a fresh read of the tree.
import { deepStrictEqual, strictEqual as equal } from "node:assert/strict";
import type { Slot, Wire } from "../../protocol/mod.ts";
import { create } from "./mod.ts";
import { reviewHost } from "../../tests/review_host.ts";
import { cleanup, commitAll, initRepo, lines, tempDir, write } from "../../tests/review_support.ts";

const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };
const WORKER: Slot = { ...SLOT, label: "w1" };

async function world(slot = SLOT) {
  const dir = await tempDir();
  const tree = await initRepo(`${dir}/tree`);
  await write(`${tree}/a.txt`, lines(3));
  await commitAll(tree, "base");
  const h = reviewHost(slot, tree, `${dir}/state`, () => "session-1", { connections: true });
  const sub = create(h.host);
  /** A subscribe as dispatch makes one: counted first, then the record read. */
  const subscribe = async (v: ReturnType<typeof h.connect>) => {
    v.subs.add({ session: slot });
    return (await sub.sessionFields!(slot, { review: false })) as Record<string, Wire>;
  };
  return { dir, tree, h, sub, subscribe };
}

Deno.test("review watch: it stays while any subscriber holds the seat and stops when the last leaves", async () => {
  const { dir, tree, h, sub, subscribe } = await world();
  try {
    const one = h.connect();
    const two = h.connect();
    await subscribe(one);
    await subscribe(two);
    deepStrictEqual(h.watchLog(), ["started"], "two subscribers share one watch");
    h.unsubscribe(one);
    deepStrictEqual(h.watchLog(), ["started"], "the second subscriber still holds it");
    h.close(two);
    deepStrictEqual(h.watchLog(), ["started", "stopped:unheld"], "a closed connection left");

    // Nothing stale: the next subscriber's read is the tree as it is now, under a new watch.
    await write(`${tree}/b.txt`, "written while nobody watched\n");
    const fields = await subscribe(h.connect());
    deepStrictEqual(h.watchLog(), ["started", "stopped:unheld", "started"]);
    equal((fields.work as { changed: number }).changed, 1);
    equal(JSON.stringify(fields.file_index).includes("b.txt"), true);
    const pushed = h.next("work_changed");
    await write(`${tree}/c.txt`, "the new watch hears this\n");
    equal(((await pushed).fields as { work: { changed: number } }).work.changed, 2);
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});

Deno.test("review watch: an unsubscribe ends it; a seat leaving the workspace ends it while held", async () => {
  const { dir, h, sub, subscribe } = await world(WORKER);
  try {
    const one = h.connect();
    await subscribe(one);
    h.unsubscribe(one);
    deepStrictEqual(h.watchLog(), ["started", "stopped:unheld"]);
    await subscribe(one);
    h.workspace.removeSeat(WORKER); // a worker despawned: its seat is forgotten
    deepStrictEqual(h.watchLog(), ["started", "stopped:unheld", "started", "stopped:seat_gone"]);
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});

Deno.test("review watch: a read nobody holds (its subscriber left meanwhile) starts no watch", async () => {
  const { dir, h, sub } = await world();
  try {
    const fields = await sub.sessionFields!(SLOT, { review: false });
    deepStrictEqual(h.watchLog(), []);
    equal((fields.work as { branch: string }).branch, "main");
  } finally {
    await sub.stop!();
    await cleanup(dir);
  }
});
