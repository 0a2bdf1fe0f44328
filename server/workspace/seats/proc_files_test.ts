// The /proc readers: a seat's tree read on its own equals the same tree cut from the whole table.
// (Needs /proc, so this tier runs with -A.)
import { assert, assertEquals } from "../../../tests/assert.ts";
import { procTable, readSubtrees } from "./proc_files.ts";
import { descendants, processTree, type ProcTable } from "./procfs.ts";

/** A shell with two sleeps under it, once both have exec'd. */
async function shellTree(tag: string) {
  const child = new Deno.Command("sh", {
    args: ["-c", `sleep 61${tag} & sleep 62${tag} & wait`],
  }).spawn();
  for (let i = 0; i < 300; i++) {
    const rows = processTree(procTable(), child.pid).processes as { command: string }[];
    if (rows.filter((r) => r.command.startsWith("sleep")).length === 2) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    pid: child.pid,
    async [Symbol.asyncDispose]() {
      for (const pid of descendants(procTable(), child.pid)) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

/** A tree's rows without the clock and memory, which move between two reads. */
function rows(table: ProcTable, root: number) {
  return (processTree(table, root, 0).processes as Record<string, unknown>[]).map((r) => {
    assert((r.memory_bytes as number) > 0, `pid ${r.pid} has resident memory`);
    return [r.pid, r.parent_pid, r.name, r.command];
  });
}

Deno.test("the trees under two roots, read on their own, equal the same trees cut from the whole table", async () => {
  await using a = await shellTree(".5");
  await using b = await shellTree(".25");
  const own = (await readSubtrees([a.pid, b.pid]))!;
  const whole = procTable();
  for (const root of [a.pid, b.pid]) {
    const tree = rows(own, root);
    assertEquals(tree, rows(whole, root));
    assertEquals(tree.map((r) => r[3]).slice(1).sort(), [
      `sleep 61${root === a.pid ? ".5" : ".25"}`,
      `sleep 62${root === a.pid ? ".5" : ".25"}`,
    ]);
    assertEquals(tree[0][1], Deno.pid, "a root names its parent");
  }
  // Nothing else was read: the two roots, their parent links and their four sleeps.
  assertEquals(own.parent.size, 6);
});

Deno.test("a root that has ended reads as itself alone, with nothing under it", async () => {
  const gone = new Deno.Command("true").spawn();
  await gone.status;
  const table = (await readSubtrees([gone.pid]))!;
  assertEquals(descendants(table, gone.pid), []);
  assertEquals(table.command(gone.pid), "");
});
