import { assertEquals } from "../../tests/assert.ts";
import { until } from "../../tests/harness.ts";
import { PluginsWatcher } from "./watch.ts";

// spec: extensions. A change under the plugins root is rescanned and pushed, debounced: a burst of
// writes is one call, and a plugins/ that appears after the watch began is followed too.
Deno.test("watch: a burst is one call; a plugins/ created later is followed", async () => {
  const cfg = await Deno.makeTempDir();
  let calls = 0;
  const w = new PluginsWatcher(cfg, () => calls++, { quietMs: 400, maxWaitMs: 5000 });
  try {
    w.arm();
    await Deno.mkdir(`${cfg}/plugins/cache`, { recursive: true });
    await until(() => calls === 1, 10_000, "the plugins/ creation to be seen");
    for (let i = 0; i < 20; i++) await Deno.writeTextFile(`${cfg}/plugins/cache/f${i}`, "x");
    await until(() => calls === 2, 10_000, "the burst to land as one call");
    await Deno.writeTextFile(`${cfg}/plugins/cache/f0`, "y");
    await until(() => calls === 3, 10_000, "a write inside plugins/ to be seen");
    await Deno.writeTextFile(`${cfg}/unrelated.json`, "{}");
    await Deno.writeTextFile(`${cfg}/settings.json`, "{}");
    await until(() => calls === 4, 10_000, "settings.json to be seen");
    assertEquals(calls, 4);
  } finally {
    w.stop();
    await Deno.remove(cfg, { recursive: true });
  }
});
