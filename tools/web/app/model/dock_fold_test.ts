import { assertEquals } from "../../../../tests/assert.ts";
import { DOCK_FOLDED_KEY, keepDockFolded, readDockFolded } from "./dock_fold.ts";

// The dock's fold is kept across reloads; a storage that refuses keeps nothing and breaks nothing.

function memory() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => m.set(k, v),
    m,
  };
}

Deno.test("dock fold: unfolded at first, then what the person chose", () => {
  const store = memory();
  assertEquals(readDockFolded(store), false);
  keepDockFolded(store, true);
  assertEquals(store.m.get(DOCK_FOLDED_KEY), "1");
  assertEquals(readDockFolded(store), true);
  keepDockFolded(store, false);
  assertEquals(readDockFolded(store), false);
});

Deno.test("dock fold: no storage, or a full one, reads unfolded and keeps nothing", () => {
  assertEquals(readDockFolded(null), false);
  keepDockFolded(null, true);
  const full = {
    getItem: (): string | null => null,
    setItem: () => {
      throw new Error("QuotaExceededError");
    },
  };
  keepDockFolded(full, true);
  assertEquals(readDockFolded(full), false);
});
