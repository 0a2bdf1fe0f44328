// spec: The effective config (a changed file is reloaded): a watch that dies is said in the log
// and started again, and the change it missed is still read.
import { assert, assertEquals } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { memoryLogger } from "../log.ts";
import { catalogueAreas } from "../registry.ts";
import { CORE_AREAS } from "./core_areas.ts";
import { ConfigStore } from "./store.ts";

const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);

/** A watch whose stream fails at its first read, as a watch the kernel dropped does. */
function dyingWatch(): Deno.FsWatcher {
  return {
    close() {},
    [Symbol.dispose]() {},
    [Symbol.asyncIterator]() {
      return {
        next: () => Promise.reject(new Error("inotify went away")),
      };
    },
  } as unknown as Deno.FsWatcher;
}

Deno.test("a config watch that dies is logged and started again; the change it missed is read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-config-watch-" });
  const path = `${dir}/forge.toml`;
  await Deno.writeTextFile(path, `[server]\nport = 8790\n`);
  const log = memoryLogger();
  const store = await ConfigStore.open(path, areas, "test", log);
  try {
    const reloaded = new Promise<number>((resolve) =>
      store.onReload((doc) =>
        resolve(
          doc.areas.flatMap((a) => a.keys).find((k) => k.path === "server.port")!
            .value as number,
        )
      )
    );
    let watches = 0;
    // The first watch dies; the file changes while no watch runs; the second is the real one.
    store.watch({
      retryMs: 20,
      watchFs: (d, o) => {
        watches++;
        if (watches === 1) {
          Deno.writeTextFileSync(path, `[server]\nport = 8791\n`);
          return dyingWatch();
        }
        return Deno.watchFs(d, o);
      },
    });
    assertEquals(await reloaded, 8791);
    assertEquals(watches, 2);
    const died = log.records.find((r) => r.event === "config_watch_died");
    assert(died, "the death is in the log");
    assertEquals(String((died as unknown as { error: Error }).error.message), "inotify went away");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("opening the config sweeps a save's temp file a crash left, and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-config-sweep-" });
  const path = `${dir}/forge.toml`;
  try {
    await Deno.writeTextFile(path, `[server]\nport = 8790\n`);
    await Deno.writeTextFile(`${dir}/.forge.toml.5eed0001.tmp`, `[server]\nport = 87`);
    const log = memoryLogger();
    const store = await ConfigStore.open(path, areas, "test", log);
    store.close();
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["forge.toml"]);
    const swept = log.records.find((r) => r.event === "config_temps_swept");
    assertEquals((swept as unknown as { removed: string[] })?.removed, [
      `${await Deno.realPath(dir)}/.forge.toml.5eed0001.tmp`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a reload listener that throws is logged; the listeners after it still hear the reload", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-config-listeners-" });
  const path = `${dir}/forge.toml`;
  await Deno.writeTextFile(path, `[server]\nport = 8790\n`);
  const log = memoryLogger();
  const store = await ConfigStore.open(path, areas, "test", log);
  const heard: string[] = [];
  store.onReload(() => heard.push("first"));
  store.onReload(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'hook')");
  });
  store.onReload(() => heard.push("last"));
  await Deno.writeTextFile(path, `[server]\nport = 8791\n`);
  const changes = await store.reload();
  assertEquals(changes?.map((c) => c.path), ["server.port"]);
  assertEquals(heard, ["first", "last"]);
  assertEquals(log.records.filter((r) => r.event === "config_reload_listener_failed").length, 1);
  store.close();
  await Deno.remove(dir, { recursive: true });
});
