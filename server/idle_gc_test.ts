import { assertEquals } from "../tests/assert.ts";
import { IdleCollector } from "./idle_gc.ts";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("idle collector: one collection after a burst once quiet, none for light traffic", async () => {
  let runs = 0;
  const c = new IdleCollector({
    quietMs: 100,
    minMessages: 10,
    minBytes: 1 << 20,
    collect: () => runs++,
  });
  try {
    c.saw(100); // light traffic: below both bounds, never collected
    await tick(300);
    assertEquals(runs, 0);
    for (let i = 0; i < 10; i++) c.saw(10);
    // Still busy: a message keeps arriving inside the quiet bound.
    for (let i = 0; i < 4; i++) {
      await tick(30);
      c.saw(1);
    }
    assertEquals(runs, 0, "never while messages keep coming");
    while (runs === 0) await tick(20); // bounded by the test runner, never a pass by time
    await tick(300);
    assertEquals([runs, c.collections], [1, 1], "one collection, then nothing new to give back");
    c.saw(2 << 20); // one big message is enough work by bytes
    while (runs === 1) await tick(20);
    assertEquals(runs, 2);
  } finally {
    c.stop();
  }
});

Deno.test("idle collector: without --expose-gc it is inert", () => {
  const c = new IdleCollector({ quietMs: 10, minMessages: 1, minBytes: 1 });
  c.saw(1);
  c.stop();
  assertEquals(c.collections, 0);
});
