// The agent's page tools on a REAL Chromium against a loopback test page (the agent's
// browser): Playwright MCP's core verbs under their own names, each session on its own tab, a
// held tab refused with a reason, a page dialog answered through browser_handle_dialog, a file
// chooser through browser_file_upload.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserConfig, pageServer } from "../../tests/browser_harness.ts";
import { runTool } from "../../tests/browser_tools.ts";
import { CORE_AREAS } from "../../server/config/core_areas.ts";
import { loadConfigText } from "../../server/config/load.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { catalogueAreas } from "../../server/registry.ts";
import type { Host, ToolCall, ToolHandler } from "../../server/subsystem.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { SUBSYSTEMS } from "../mod.ts";
import { create } from "./mod.ts";

const handOff = Promise.withResolvers<{ ending: "answered"; answer: true }>();
const parked: unknown[] = [];

function fakeHost(stateDir: string): Host {
  const { config } = loadConfigText(
    browserConfig("/tmp"),
    `${stateDir}/forge.toml`,
    catalogueAreas(CORE_AREAS, SUBSYSTEMS),
  );
  const log = memoryLogger();
  return {
    log,
    config: () => config,
    stateDir,
    state: new StateKeeper(log),
    asks: {
      park: (_slot: unknown, spec: { request: unknown }) => {
        parked.push(spec.request);
        return { id: "hand-1", outcome: handOff.promise };
      },
    } as unknown as Host["asks"],
  } as unknown as Host;
}

function callAs(label: string): ToolCall {
  const slot = { org: "Acme", project: "proj", label };
  return {
    seat: { slot, cwd: "/tmp" } as unknown as SeatInfo,
    role: label === "lead" ? "lead" : "worker",
    toolUseId: null,
    signal: new AbortController().signal,
  };
}

Deno.test("the browser tools drive a real page: select, check, keys, wait, evaluate, dialogs, back, tabs, upload", async () => {
  await using page = pageServer();
  const state = await Deno.makeTempDir();
  const browser = create(fakeHost(state));
  const tools = browser.tools as Record<string, ToolHandler>;
  const lead = callAs("lead");
  const run = async (name: string, input: Record<string, unknown>, call = lead) => {
    const r = await runTool(tools, name, input, call);
    return r;
  };
  try {
    const nav = await run("navigate", { url: `${page.url}/widgets` });
    assertEquals(nav.isError, undefined, nav.text);
    assertMatch(nav.text, /^### Result\nNavigated to .*\/widgets\n### Page\n- Page URL: /);
    assertMatch(nav.text, /- combobox \[ref=e\d+\]:\n\s+- option "Red" \[selected\]/);
    assertMatch(nav.text, /checkbox "I agree" \[ref=e\d+\]/);
    const refOf = (text: string, re: RegExp) => re.exec(text)![1];
    const color = refOf(nav.text, /combobox \[ref=(e\d+)\]/);
    const agree = refOf(nav.text, /checkbox "I agree" \[ref=(e\d+)\]/);
    const q = refOf(nav.text, /textbox \[ref=(e\d+)\]/);
    const ask = refOf(nav.text, /button "Ask" \[ref=(e\d+)\]/);

    const sel = await run("select_option", { target: color, values: ["Green"] });
    assertEquals(sel.isError, undefined, sel.text);
    assertMatch(sel.text, /Selected \["g"\]/);
    await page.event((e) => e.what === "select" && e.value === "g");
    const filled = await run("fill_form", {
      fields: [{ target: agree, name: "agree", type: "checkbox", value: "true" }],
    });
    assertMatch(filled.text, /checkbox "I agree" \[checked\]/);
    await page.event((e) => e.what === "check" && e.value === "true");
    await run("type", { target: q, text: "hello", submit: true });
    await page.event((e) => e.what === "enter" && e.value === "hello");
    const waited = await run("wait_for", { text: "arrived" });
    assertMatch(waited.text, /paragraph \[ref=e\d+\]: arrived/);
    assertEquals((await run("evaluate", { function: "() => 6 * 7" })).text, "42");
    assertEquals(
      (await run("evaluate", { function: "(el) => el.id", target: q })).text,
      '"q"',
    );
    const missing = await run("click", { target: "e999" });
    assertEquals(missing.isError, true);
    assertMatch(
      missing.text,
      /^ref e999 names nothing on the page now: .*Take a new browser_snapshot/,
    );
    const nowhere = await run("click", { target: "#nowhere" });
    assertMatch(nowhere.text, /^no element matches "#nowhere"; take a browser_snapshot/);

    // A page dialog holds the tab: other tools are refused until it is answered.
    const clicked = await run("click", { target: ask });
    assertMatch(clicked.text, /### Modal state\n- A confirm dialog is open: "sure\?"/);
    const blocked = await run("snapshot", {});
    assertEquals(blocked.isError, true);
    assertMatch(blocked.text, /answer it with browser_handle_dialog/);
    await run("handle_dialog", { accept: true });
    await page.event((e) => e.what === "confirm" && e.value === "true");

    // History and the seat's own tabs.
    await run("click", { target: "#next" });
    const back = await run("navigate_back", {});
    assertMatch(back.text, /Went back[\s\S]*Page Title: widgets/);
    const listed = await run("tabs", { action: "new", url: `${page.url}/form` });
    assertMatch(
      listed.text,
      /^### Open tabs\n- 0: tab 1 "widgets" .*\n- 1 \(current\): tab 2 .*\/form page=/,
    );
    // A worker's session drives its own tab, never the lead's: its list starts at 0 too.
    const other = await run("tabs", { action: "select", index: 1 }, callAs("w1"));
    assertEquals(other.isError, true);
    assertMatch(
      other.text,
      /^there is no tab at index 1: yours are at 0\.\.0\n- 0 \(current\): tab/,
    );
    // A tab closes with its session: the worker's release closes its tab, and its next call
    // opens a fresh one.
    const workerTab = Number(/- 0 \(current\): tab (\d+)/.exec(other.text)![1]);
    browser.onUpdate!({ name: "releasing", fields: { key: callAs("w1").seat.slot } });
    const stillListed = (t: string) => new RegExp(`: tab ${workerTab} `).test(t);
    let fresh = await run("tabs", { action: "list" }, callAs("w1"));
    for (const until = performance.now() + 10_000; stillListed(fresh.text);) {
      if (performance.now() > until) {
        throw new Error(`tab ${workerTab} never closed: ${fresh.text}`);
      }
      await new Promise((r) => setTimeout(r, 50));
      fresh = await run("tabs", { action: "list" }, callAs("w1"));
    }
    assert(Number(/- 0 \(current\): tab (\d+)/.exec(fresh.text)![1]) > workerTab, fresh.text);

    // The file chooser waits for the agent's upload when no person holds the tab.
    const file = await Deno.makeTempFile();
    await Deno.writeTextFile(file, "agent bytes");
    await run("click", { target: "#file" });
    const up = await run("file_upload", { paths: [file] });
    assertEquals(up.isError, undefined, up.text);
    await page.event((e) => e.what === "file" && e.value.endsWith(":agent bytes"));

    // A hand-off by page id names the caller's own tab: another session's is refused, unparked.
    const leadPage = /- 1 \(current\): tab 2 .* page=(\S+)/.exec(
      (await run("tabs", { action: "list" })).text,
    )![1];
    const foreign = await run("hand_off", { reason: "x", page: leadPage }, callAs("w1"));
    assertEquals(foreign.isError, true);
    assertMatch(foreign.text, /belongs to Acme\/proj\/lead; a session hands off only its own tabs/);
    assertEquals(parked.length, 0, "nothing parked");
    // A hand-off holds the tab: the page tools on it are refused with the reason until it ends.
    const waiting = run("hand_off", { reason: "sign in" });
    await new Promise((r) => setTimeout(r, 0));
    assertEquals((parked[0] as { reason: string; tab: number }).tab, 2);
    const held = await run("snapshot", {});
    assertEquals(held.isError, true);
    assertMatch(held.text, /tab 2 is held: a hand-off \(hand-1\) is waiting on the person/);
    handOff.resolve({ ending: "answered", answer: true });
    assertMatch((await waiting).text, /done in tab 2; carry on/);
    assert((await run("snapshot", {})).isError === undefined, "the tab is free again");
    assertEquals((await run("close", {})).text, "Closed tab 2");
    assertMatch(
      (await run("tabs", { action: "list" })).text,
      /^### Open tabs\n- 0: tab 1 "widgets" .*\n- 1 \(current\): tab \d+ "[^"]*" about:blank page=/,
    );
  } finally {
    await browser.stop();
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
});
