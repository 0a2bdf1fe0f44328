import { assertEquals } from "../../tests/assert.ts";
import { InventoryKeeper } from "./inventory.ts";

function keeper(dir: string | null) {
  const emitted: string[] = [];
  const k = new InventoryKeeper({
    configDir: () => dir,
    claudePath: () => "/bin/claude",
    pathEnv: () => "",
    emit: (name) => emitted.push(name),
    warn: () => {},
  });
  return { k, emitted };
}

// spec: extensions > snapshot: "null when no plugins root resolves ..., which is its own state
// rather than an empty machine".
Deno.test("keeper: no plugins root is snapshot null; an empty root is an empty inventory", async () => {
  assertEquals((await keeper(null).k.read()).snapshot, null);
  const dir = await Deno.makeTempDir();
  try {
    const read = await keeper(dir).k.read();
    assertEquals([read.snapshot?.installed, read.lsp, read.update_run], [[], [], null]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A rescan pushes plugins_inventory_updated only when the inventory moved; the first scan is
// the subscribe's snapshot, not a frame.
Deno.test("keeper: a no-change rescan emits nothing, a change emits once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { k, emitted } = keeper(dir);
    await k.refresh("manual");
    await k.refresh("manual");
    assertEquals(emitted, []);
    await Deno.mkdir(`${dir}/plugins`);
    await Deno.writeTextFile(
      `${dir}/plugins/known_marketplaces.json`,
      JSON.stringify({
        m: { source: { source: "directory", path: "/nowhere" }, installLocation: "/nowhere" },
      }),
    );
    await k.refresh("manual");
    await k.refresh("manual");
    assertEquals(emitted, ["plugins_inventory_updated"]);
    await k.refresh("manual", true);
    assertEquals(emitted.length, 2, "`always` pushes even when nothing moved");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
