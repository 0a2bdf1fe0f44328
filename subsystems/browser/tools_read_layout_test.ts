// The agent's finer page tools on a REAL Chromium against a loopback test page (docs/browser.md):
// reading (browser_find, forge's form_state; tools_read.ts), layout (browser_resize,
// browser_emulate_media; tools_layout.ts), browser_drag, and the tab's logs
// (browser_console_messages, browser_network_requests, browser_network_request, forge's
// click_and_capture; tools_net.ts). Outcomes are the page's own `/event` reports and the answers.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserConfig, pageServer } from "../../tests/browser_harness.ts";
import { runTool } from "../../tests/browser_tools.ts";
import { CORE_AREAS } from "../../server/config/core_areas.ts";
import { loadConfigText } from "../../server/config/load.ts";
import { memoryLogger } from "../../server/log.ts";
import { StateKeeper } from "../../server/state/keeper.ts";
import { catalogueAreas } from "../../server/registry.ts";
import type { ServerMessage } from "../../protocol/mod.ts";
import type { Host, Peer, ToolCall, ToolHandler, ToolResult } from "../../server/subsystem.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import { SUBSYSTEMS } from "../mod.ts";
import { create } from "./mod.ts";

async function withTools(
  fn: (
    run: (name: string, input: Record<string, unknown>) => Promise<ToolResult>,
    cwd: string,
    browser: ReturnType<typeof create>,
  ) => Promise<void>,
): Promise<void> {
  const state = await Deno.makeTempDir();
  const { config } = loadConfigText(
    browserConfig("/tmp"),
    `${state}/forge.toml`,
    catalogueAreas(CORE_AREAS, SUBSYSTEMS),
  );
  const log = memoryLogger();
  const host = {
    log,
    config: () => config,
    stateDir: state,
    state: new StateKeeper(log),
  } as unknown as Host;
  const browser = create(host);
  const tools = browser.tools as Record<string, ToolHandler>;
  const call: ToolCall = {
    seat: { slot: { org: "Acme", project: "proj", label: "lead" }, cwd: state } as SeatInfo,
    role: "lead",
    toolUseId: null,
    signal: new AbortController().signal,
  };
  try {
    await fn((name, input) => runTool(tools, name, input, call), state, browser);
  } finally {
    await browser.stop();
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
}

const ok = (r: ToolResult) => {
  assertEquals(r.isError, undefined, r.text);
  return r.text;
};
const refused = (r: ToolResult, re: RegExp) => {
  assertEquals(r.isError, true, r.text);
  assertMatch(r.text, re);
};

Deno.test("find, drag, resize, emulate_media and form_state on a real page", async () => {
  await using page = pageServer();
  await withTools(async (run, cwd, browser) => {
    ok(await run("navigate", { url: `${page.url}/tools` }));

    // find: a case-insensitive substring or a /regex/flags, only the hits under their path, refs
    // live.
    const found = ok(await run("find", { text: "DROP ZONE" }));
    assertMatch(
      found,
      /### Find results\n1 snapshot line match text "DROP ZONE":\n```yaml\n- generic:\n {2}- generic \[ref=(f\d+)?e\d+\]: Drop zone\n```$/,
    );
    const re = ok(await run("find", { regex: "/sign\\s?up/i" }));
    assertMatch(re, /button "Sign up" \[ref=(f\d+)?e\d+\]/);
    refused(await run("find", { regex: "/(/" }), /regex \/\(\/ is not a valid regular expression/);
    refused(await run("find", { regex: "sign" }), /regex "sign" is not written \/pattern\/flags/);
    refused(await run("find", { text: "a", regex: "/a/" }), /exactly one of `text` or `regex`/);
    assertMatch(
      ok(await run("find", { text: "zzz-none" })),
      /0 snapshot lines match text "zzz-none"$/,
    );
    assertMatch(
      ok(await run("find", { text: "knob", filename: "found.txt" })),
      /^Saved \d+ characters to .*found\.txt$/,
    );
    assertMatch(await Deno.readTextFile(`${cwd}/found.txt`), /generic \[ref=(f\d+)?e\d+\]: Knob/);

    // drag: an HTML5 draggable card into its drop zone carries the drag's data.
    assertMatch(ok(await run("drag", { startTarget: "#card", endTarget: "#zone" })), /Dragged/);
    await page.event((e) => e.what === "drop" && e.value === "card-7");
    // ...and a plain-mouse drag (press, moves with the button held, release) ends on the target.
    ok(await run("drag", { startTarget: "#knob", endTarget: "#end" }));
    const moved = await page.event((e) => e.what === "mousedrag");
    assertEquals(moved.value, "450,350");
    assert(Number(moved.moves) >= 8, `moves ${moved.moves}`);
    refused(
      await run("drag", { startTarget: "#card", endTarget: "e999" }),
      /^ref e999 names nothing on the page now/,
    );

    // resize: the page lays out at the new size.
    assertEquals(ok(await run("resize", { width: 800, height: 600 })), "Resized tab 1 to 800x600");
    assertEquals(
      ok(await run("evaluate", { function: "() => [innerWidth, innerHeight]" })),
      "[\n 800,\n 600\n]",
    );

    // A person watching lays the tab out (spec browser_resize): the agent's resize is refused.
    const replies: ServerMessage[] = [];
    const peer = {
      id: 1,
      answering: false,
      showing: null,
      send: (m: ServerMessage) => replies.push(m),
      sendBinary: () => {},
      buffered: () => 0,
      onClose: () => {},
    } as Peer;
    const seat = { org: "Acme", project: "proj", label: "lead" };
    const verbs = browser.verbs;
    await verbs.browser_view({ kind: "browser_view", seat, tab: 1, reply_to: 1 }, peer);
    assertEquals(replies.find((m) => m.kind === "reply")?.body, {
      ok: true,
      profile: "Acme/default",
      tab: 1,
    });
    await verbs.browser_resize({ kind: "browser_resize", width: 900, height: 500, scale: 1 }, peer);
    refused(
      await run("resize", { width: 640, height: 480 }),
      /^tab 1's layout belongs to the person watching it \(900x500\); it stays as they size it$/,
    );
    assertEquals(ok(await run("evaluate", { function: "() => innerWidth" })), "900");
    verbs.browser_detach({ kind: "browser_detach" }, peer);

    // emulate_media: the page's own media listener hears dark; null clears; media sets print.
    assertMatch(ok(await run("emulate_media", { colorScheme: "dark" })), /colorScheme=dark/);
    await page.event((e) => e.what === "dark" && e.value === "true");
    ok(await run("emulate_media", { media: "print" }));
    assertEquals(
      ok(
        await run("evaluate", {
          function:
            "() => [matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches]",
        }),
      ).replace(/\s/g, ""),
      "[true,true]",
      "an omitted feature keeps its value",
    );
    assertMatch(
      ok(await run("emulate_media", { colorScheme: null, media: null })),
      /No media emulation/,
    );
    await page.event((e) => e.what === "dark" && e.value === "false");

    // form_state: every form's fields with value, control text and validity.
    const state = ok(await run("form_state", {}));
    assertMatch(state, /^- form "signup" \(4 fields, 2 invalid\):/);
    assertMatch(state, /- email "Email" name=email value="nope" \[required\] \[invalid: [^\]]+\]/);
    assertMatch(state, /- password "" name=pw value=\(6 characters\)/);
    assert(!state.includes("secret"), "a password's characters stay out");
    assertMatch(state, /- select "" name=plan value="p" text="Pro"/);
    assertMatch(state, /- checkbox "Terms" name=tos \[unchecked\] \[required\] \[invalid: /);
    const one = ok(await run("form_state", { target: "#signup" }));
    assertEquals(one, state);
    // ...and a password's characters stay out of the snapshot too.
    const snap = ok(await run("snapshot", {}));
    assertMatch(snap, /textbox \[ref=(f\d+)?e\d+\]: \(a password, 6 characters\)/);
    assert(!snap.includes("secret"), "the snapshot shows no password");
    ok(await run("navigate", { url: `${page.url}/widgets` }));
    refused(await run("form_state", {}), /the page has no <form>; pass a container's ref/);
    assertMatch(ok(await run("form_state", { target: "body" })), /^- body "" \(3 fields\):/);
  });
});

Deno.test("console and network: levels, navigation, static, filter, details, click_and_capture", async () => {
  await using page = pageServer();
  await withTools(async (run) => {
    ok(await run("navigate", { url: `${page.url}/tools` }));

    // console_messages: info and more severe (the usual choice); debug adds lib.js's line.
    const info = ok(await run("console_messages", { level: "info" }));
    assertMatch(
      info,
      /^\[LOG\] hello 42 @ .*\/tools:\d+\n\[WARNING\] careful @ .*\n\[ERROR\] broken thing @ /,
    );
    assert(!info.includes("lib loaded"), info);
    assertMatch(
      ok(await run("console_messages", { level: "debug" })),
      /\[DEBUG\] lib loaded @ .*\/lib\.js:0/,
    );
    assertMatch(
      ok(await run("console_messages", { level: "error" })),
      /^\[ERROR\] broken thing @ [^\n]*$/,
    );

    // click_and_capture: the POST the click made, its status and its JSON body.
    const cap = ok(await run("click_and_capture", { target: "#load", settleMs: 300 }));
    assertMatch(
      cap,
      /1 response\(s\) the click triggered within 300 ms:\n1\. \[POST\] .*\/api\/data\?x=1 => \[200\] OK\n {3}body: \{"items":\[1,2,3\]\}/,
    );
    assertMatch(ok(await run("find", { text: "got 3" })), /\]: got 3$/m);
    const none = ok(await run("click_and_capture", { target: "#got", settleMs: 0 }));
    assertMatch(
      none,
      /^Clicked #got\n- 0 response\(s\) the click triggered within 0 ms:\n- The page/,
    );

    // network_requests: the fetch shown, the document and script hidden unless `static`.
    const net = ok(await run("network_requests", { static: false }));
    assertMatch(
      net,
      /^(\d+)\. \[POST\] .*\/api\/data\?x=1 => \[200\] OK\n\nNote: 2 static requests not shown/,
    );
    const all = ok(await run("network_requests", { static: true }));
    assertMatch(
      all,
      /^1\. \[GET\] .*\/tools => \[200\] OK\n2\. \[GET\] .*\/lib\.js => \[200\] OK\n3\. \[POST\]/,
    );
    assertEquals(
      ok(await run("network_requests", { static: true, filter: "\\.js$" })).split("\n").length,
      1,
    );
    refused(
      await run("network_requests", { static: false, filter: "(" }),
      /filter "\(" is not a valid regular expression/,
    );

    // network_request: full details, and one part at a time.
    const detail = ok(await run("network_request", { index: 3 }));
    assertMatch(
      detail,
      /^#3 \[POST\] .*\/api\/data\?x=1\n\n {2}General\n {4}status: {4}\[200\] OK/,
    );
    assertMatch(detail, /mimeType: {2}application\/json/);
    assertMatch(detail, /part="request-body"[\s\S]*part="response-body"/);
    assertEquals(ok(await run("network_request", { index: 3, part: "request-body" })), "q=7");
    assertEquals(
      ok(await run("network_request", { index: 3, part: "response-body" })),
      '{"items":[1,2,3]}',
    );
    assertMatch(
      ok(await run("network_request", { index: 3, part: "response-headers" })),
      /content-type: application\/json/i,
    );
    refused(
      await run("network_request", { index: 99 }),
      /request #99 is not in this page's log \(it holds #1\.\.#3\)/,
    );

    // A navigation starts both logs afresh; `all` keeps the earlier page's console.
    ok(await run("navigate", { url: `${page.url}/widgets` }));
    assertMatch(
      ok(await run("console_messages", { level: "info" })),
      /^no console messages at info or more severe since the page loaded$/,
    );
    assertMatch(
      ok(await run("console_messages", { level: "info", all: true })),
      /\[LOG\] hello 42/,
    );
    // (Filtered: Chromium asks for /favicon.ico after the load, whenever it gets to it.)
    assertEquals(
      ok(await run("network_requests", { static: true, filter: "widgets|tools|lib" })),
      `1. [GET] ${page.url}/widgets => [200] OK`,
    );
  });
});
