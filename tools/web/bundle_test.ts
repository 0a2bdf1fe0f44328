import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { clearEnded } from "./bundle.ts";

Deno.test("web bundle: a start clears what no running web program holds, and only that", async () => {
  const dist = await Deno.makeTempDir({ prefix: "web_dist_" });
  try {
    for (const name of [String(Deno.pid), "running", "ended", "unlocked", "worker"]) {
      await Deno.mkdir(`${dist}/${name}`);
      await Deno.writeTextFile(`${dist}/${name}/main.js`, "");
    }
    for (const name of [String(Deno.pid), "running", "ended"]) {
      await Deno.writeTextFile(`${dist}/${name}/.held`, "");
    }
    // Another program serving "running" holds its lock (here, through a descriptor of its own).
    using running = await Deno.open(`${dist}/running/.held`, { read: true, write: true });
    await running.lock(true);
    // What the one-folder layout wrote at the top.
    await Deno.writeTextFile(`${dist}/main.js`, "");
    await clearEnded(dist, Deno.pid);
    assertEquals((await Array.fromAsync(Deno.readDir(dist))).map((e) => e.name), ["running"]);
    assertEquals((await Array.fromAsync(Deno.readDir(`${dist}/running`))).length, 2);
    await clearEnded(`${dist}/none`, Deno.pid); // no dist yet: nothing to clear
  } finally {
    await Deno.remove(dist, { recursive: true });
  }
});
