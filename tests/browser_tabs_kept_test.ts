// Spawned tier: a seat's browser tabs outlive a forge restart (an extension: the spec keeps no tab
// across a host). The lead runs the real claude CLI against the fake Messages API, scripted to
// open two pages through forge's browser tools on a REAL Chromium and go back to the first; forge
// stops and starts again on its port, and the new run's host, started by a viewer's attach,
// reopens both pages as the seat's, the first one current. The pages are served on loopback.
// spec: browser_view ("omitting it takes the asking seat's current tab"), browser_tabs rows.
import type { ForgeClient } from "../tools/client_lib.ts";
import { assertEquals } from "./assert.ts";
import { pageServer } from "./browser_harness.ts";
import { promptTurn, toolResultsOf } from "./mcp_harness.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";

const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use", name: `mcp__forge__browser_${name}`, input }],
});

type Row = { number: number; url: string; owner: { label: string } | null };

let asks = 100;

/** The profile's rows once `pred` holds of them: the ask's answer, else a push after it. */
async function rowsWhen(c: ForgeClient, pred: (rows: Row[]) => boolean): Promise<Row[]> {
  const seat = { org: "Acme", project: "alpha", label: "lead" };
  const replyTo = ++asks;
  c.send({ kind: "browser_tabs", seat, reply_to: replyTo });
  const reply = await c.next((m) => m.kind === "reply" && m.reply_to === replyTo, 60_000);
  const asked = (reply.body as { tabs: { rows: Row[] } }).tabs.rows;
  if (pred(asked)) return asked;
  const pushed = await c.next(
    (m) => m.kind === "browser_tabs" && pred((m as unknown as { rows: Row[] }).rows),
    60_000,
  );
  return (pushed as unknown as { rows: Row[] }).rows;
}

Deno.test({
  name: "browser: a seat's tabs and its current one are open again after forge restarts",
  // The browser host's Chromium outlives the test's own bookkeeping of ops (browser_test.ts too).
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using page = pageServer();
    const [form, widgets] = [`${page.url}/form`, `${page.url}/widgets`];
    const scriptDir = await Deno.makeTempDir();
    const script = `${scriptDir}/script.json`;
    await Deno.writeTextFile(
      script,
      JSON.stringify({
        named: {
          browse: [
            use("navigate", { url: form }),
            use("tabs", { action: "new", url: widgets }),
            use("tabs", { action: "select", index: 0 }),
            { content: [{ type: "text", text: "browsed" }] },
          ],
        },
      }),
    );
    await using world = await seatWorld([{ name: "alpha" }], script);
    let forge = await world.startForge();
    const lead = world.lead("alpha");
    const c = await forge.ready();
    await subscribeSeat(c, lead, true);
    const results = toolResultsOf(await promptTurn(c, lead, "[[script:browse]] open two pages"));
    assertEquals(results.map((r) => r.isError), [false, false, false], JSON.stringify(results));
    const mine = (rows: Row[]) => rows.filter((r) => r.owner?.label === "lead").map((r) => r.url);
    await rowsWhen(c, (rows) => mine(rows).join() === [form, widgets].join());

    assertEquals((await forge.stop()).code, 0);
    forge = await world.startForge({}, forge.port);
    const viewer = await forge.ready();
    // No tab named: the seat's current one. The attach starts the new run's host.
    viewer.send({ kind: "browser_view", seat: lead, reply_to: 1 });
    const reply = await viewer.next((m) => m.kind === "reply" && m.reply_to === 1, 60_000);
    const body = reply.body as { ok: boolean; tab: number };
    assertEquals(body.ok, true, JSON.stringify(body));
    const rows = await rowsWhen(viewer, (rows) => mine(rows).join() === [form, widgets].join());
    assertEquals(rows.find((r) => r.number === body.tab)?.url, form, JSON.stringify(rows));
    await viewer.close();
    assertEquals(viewer.schemaErrors, []);
  },
});
