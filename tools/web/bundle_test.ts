import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { clearEnded } from "./bundle.ts";

Deno.test("web bundle: a start clears what no running web program serves, and only that", async () => {
  const dist = await Deno.makeTempDir({ prefix: "web_dist_" });
  const other = new Deno.Command("sleep", { args: ["60"] }).spawn();
  try {
    const ended = new Deno.Command("true").spawn();
    await ended.status;
    for (const pid of [Deno.pid, other.pid, ended.pid]) {
      await Deno.mkdir(`${dist}/${pid}/worker`, { recursive: true });
      await Deno.writeTextFile(`${dist}/${pid}/main.js`, "");
    }
    // What the one-folder layout wrote at the top.
    await Deno.writeTextFile(`${dist}/main.js`, "");
    await Deno.mkdir(`${dist}/worker`);
    await clearEnded(dist, Deno.pid);
    assertEquals(
      (await Array.fromAsync(Deno.readDir(dist))).map((e) => e.name),
      [String(other.pid)],
    );
    assertEquals((await Array.fromAsync(Deno.readDir(`${dist}/${other.pid}`))).length, 2);
    await clearEnded(`${dist}/none`, Deno.pid); // no dist yet: nothing to clear
  } finally {
    other.kill();
    await other.status;
    await Deno.remove(dist, { recursive: true });
  }
});
