// Spawned tier: forge runs as a process under its launcher's permissions; its lead runs the real
// claude CLI against the fake Messages API, scripted to call forge's browser tools, on a REAL
// Chromium. spec: the agent's browser (the agent navigates and clicks and two viewers see its
// frames; a hand-off parks and the person's done resumes the agent), browser_view_page,
// respond_browser_hand_off, browser_hand_off_pending/resolved.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { framesOf, nextBrowserFrame, pageServer, twoViewers } from "./browser_harness.ts";
import { promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, typedUpdateOf, updateOf } from "./seats_harness.ts";

const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use", name: `mcp__forge__browser_${name}`, input }],
});

const button = '{{match:button "Press me" \\[ref=(\\w+)\\]}}';

Deno.test("the agent drives its tab through forge's browser tools while two viewers watch; a hand-off parks and resumes", async () => {
  await using page = pageServer();
  const scriptDir = await Deno.makeTempDir();
  const script = `${scriptDir}/script.json`;
  await Deno.writeTextFile(
    script,
    JSON.stringify({
      named: {
        browse: [
          use("navigate", { url: `${page.url}/form` }),
          use("find", { text: "PRESS" }),
          // Each ref is read off the previous answer's snapshot, as the model reads it.
          use("click", { target: button, element: "Press me" }),
          use("type", { target: "{{match:textbox \\[ref=(\\w+)\\]}}", text: "from the agent" }),
          use("click_and_capture", { target: button, settleMs: 300 }),
          { content: [{ type: "text", text: "browsed" }] },
        ],
        handoff: [
          use("hand_off", { reason: "please sign in" }),
          { content: [{ type: "text", text: "resumed" }] },
        ],
        badhandoff: [
          use("hand_off", { reason: "x", page: "no-such-page" }),
          { content: [{ type: "text", text: "refused" }] },
        ],
      },
    }),
  );
  await using world = await seatWorld([{ name: "alpha" }], script);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  // Two viewers attach first: the host starts and its boot tab is the one the agent adopts.
  const [a, b] = await twoViewers(forge, lead);

  const frames = await promptTurn(c, lead, "[[script:browse]] press the button");
  const results = toolResultsOf(frames);
  assertEquals(
    results.map((r) => r.isError),
    [false, false, false, false, false],
    JSON.stringify(results),
  );
  assertMatch(results[0].text, /Navigated to .*\/form[\s\S]*button "Press me" \[ref=\w+\]/);
  assertMatch(
    results[1].text,
    /1 snapshot line match text "PRESS":\n```yaml\n[\s\S]*- button "Press me" \[ref=\w+\]/,
  );
  assertMatch(results[2].text, /Clicked Press me[\s\S]*generic \[ref=\w+\]: clicked/);
  // The click's own report to the page server, captured with its answer.
  assertMatch(results[4].text, /1\. \[GET\] .*\/event\?what=click => \[200\] OK\n {3}body: ok/);
  await page.event((e) => e.what === "click");
  await page.event((e) => e.what === "input" && e.value === "from the agent");
  // Both viewers see the agent's page: frames at the page's size, a repaint after the click.
  for (const v of [a, b]) {
    const f = await nextBrowserFrame(v, (f) => f.tab === 1 && f.pageWidth === 1280);
    assert(f.bytes.length > 0);
    assert(new Set(framesOf(v).map((f) => f.bytes.join())).size > 1, "the page repainted");
  }

  // A page id no tab carries is refused before anything parks.
  const bad = toolResultsOf(await promptTurn(c, lead, "[[script:badhandoff]] hand off wrongly"));
  assertEquals(bad[0].isError, true);
  assertMatch(bad[0].text, /no open tab carries page no-such-page/);

  // The hand-off parks with the tab and its page id; Open by page id; done resumes the agent.
  command(c, "prompt", { key: lead, text: "[[script:handoff]] ask the person", attachments: [] });
  const pending = typedUpdateOf(
    await c.next((m) => updateOf(m, "browser_hand_off_pending") !== null, 60_000),
    "browser_hand_off_pending",
  )!;
  assertEquals([pending.reason, pending.tab], ["please sign in", 1]);
  a.send({ kind: "browser_view_page", seat: lead, target: String(pending.page), reply_to: 5 });
  const opened = await a.next((m) => m.kind === "reply" && m.reply_to === 5, 30_000);
  assertEquals(opened.body, { ok: true, profile: "Acme/default", tab: 1 });
  a.send({ kind: "browser_tabs", seat: lead, reply_to: 6 });
  const tabs = (await a.next((m) => m.kind === "reply" && m.reply_to === 6, 30_000)).body as {
    tabs: { rows: { state: string; owner: unknown }[] };
  };
  assertEquals([tabs.tabs.rows[0].state, tabs.tabs.rows[0].owner], ["held", lead]);
  command(c, "respond_browser_hand_off", { key: lead, id: pending.id, done: true });
  const resumed = await untilResult(c);
  const resolved = resumed.map((m) => updateOf(m, "browser_hand_off_resolved")).find(Boolean);
  assertEquals(resolved?.id, pending.id);
  const [result] = toolResultsOf(resumed);
  assertEquals(result.isError, false);
  assertMatch(result.text, /done in tab 1; carry on/);
  await Deno.remove(scriptDir, { recursive: true });
});
