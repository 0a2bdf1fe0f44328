// spec: session rows `work`, `git`, `file_index` (the seat's change watch) and `header.seq` ("the
// number the seat's next frame will carry"); subscribe, unsubscribe. A seat's watch runs for the
// connections holding its session subject: once the last lets go - one by unsubscribing, one by
// closing - writes under the tree start no pass and put no frame on the seat's stream, and a
// later subscriber reads the tree fresh under a new watch.
import type { SessionSnapshot } from "../protocol/mod.ts";
import { assert, assertEquals } from "./assert.ts";
import { testServer, until } from "./harness.ts";
import { initRepo, write } from "./review_support.ts";

const alpha = { org: "Acme", project: "alpha", label: "lead" };
const beta = { org: "Acme", project: "beta", label: "lead" };

const config = (a: string, b: string) =>
  `[[accounts]]\ndisplay_name = "F"\nprovider = "anthropic"\n[[orgs]]\nname = "Acme"\n` +
  `accounts = ["F"]\n[[orgs.projects]]\nname = "alpha"\npath = "${a}"\n` +
  `[[orgs.projects]]\nname = "beta"\npath = "${b}"\n[terminal]\nenabled = false\n`;

Deno.test("review watch: a seat nobody holds any more is not watched, and is read fresh after", async () => {
  const dir = await Deno.makeTempDir({ prefix: "forge-review-watch-" });
  try {
    const a = await initRepo(`${dir}/a`);
    const b = await initRepo(`${dir}/b`);
    await using t = await testServer(config(a, b));
    const watchLog = (seat: string) =>
      t.log.records.flatMap((r) => {
        const f = r as unknown as { seat?: string; why?: string };
        if (f.seat !== seat) return [];
        if (r.event === "review_watch_started") return ["started"];
        return r.event === "review_watch_stopped" ? [`stopped:${f.why}`] : [];
      });
    const snapshot = async (c: Awaited<ReturnType<typeof t.ready>>, seat: typeof alpha) => {
      c.send({ kind: "subscribe", what: { session: seat } });
      const m = await c.next((m) => m.kind === "snapshot", 15_000);
      return m.data as SessionSnapshot;
    };

    // Two connections hold alpha: one closes, the other unsubscribes.
    const one = await t.ready();
    const two = await t.ready();
    const before = (await snapshot(one, alpha)).header.seq;
    await snapshot(two, alpha);
    await one.close();
    await until(() => t.log.records.some((r) => r.event === "connection_ended"));
    assertEquals(watchLog("Acme/alpha/lead"), ["started"], "the other connection still holds it");
    two.send({ kind: "unsubscribe", what: { session: alpha } });
    two.send({ kind: "ping" });
    await two.next((m) => m.kind === "pong"); // the unsubscribe before it was handled
    assertEquals(watchLog("Acme/alpha/lead"), ["started", "stopped:unheld"]);

    // Writes under alpha's tree, then under beta's, which `two` watches: beta's push is the
    // positive event waited on, after the writes alpha's old watch would have passed over.
    for (let i = 0; i < 5; i++) await write(`${a}/f${i}.txt`, `file ${i}\n`);
    await snapshot(two, beta);
    await write(`${b}/news.txt`, "beta moved\n");
    await two.next((m) => m.kind === "update" && "work_changed" in (m.update as object), 15_000);

    // alpha's stream did not move, and its next subscriber reads the tree as it is now.
    const after = await snapshot(two, alpha);
    assertEquals(after.header.seq, before, "no frame went onto alpha's stream while unheld");
    assertEquals(after.work?.changed, 5);
    assert(JSON.stringify(after.file_index).includes("f4.txt"), "the file index is read fresh");
    assertEquals(watchLog("Acme/alpha/lead"), ["started", "stopped:unheld", "started"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
