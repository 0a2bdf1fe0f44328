// Spawned tier: forge runs as a process under its launcher's permissions; its lead runs the real
// claude CLI against the fake Messages API, scripted to sign in on a page whose sign-in form sits
// in an open shadow root inside a cross-origin iframe - by refs it reads off browser_snapshot's
// answer, as a model would - while two people watch the tab and one of them holds the controller
// role throughout. The model's tool list carries the browser family's names.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { framesOf, nextBrowserFrame, twoViewers } from "./browser_harness.ts";
import { promptTurn, toolResultsOf } from "./mcp_harness.ts";
import { seatWorld, subscribeSeat } from "./seats_harness.ts";
import { corpusServer } from "../fixtures/browser_corpus/server.ts";

const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use", name: `mcp__forge__browser_${name}`, input }],
});
/** The ref on the previous answer's line for `line` (fake API `{{match:...}}`). */
const refOf = (line: string) => `{{match:${line} \\[ref=(f\\d+e\\d+)\\]}}`;

/** The browser family's names, and the arguments the model must see for the key tools. */
const NAMES = [
  "navigate",
  "navigate_back",
  "snapshot",
  "find",
  "take_screenshot",
  "click",
  "type",
  "press_key",
  "fill_form",
  "select_option",
  "hover",
  "drag",
  "drop",
  "file_upload",
  "tabs",
  "wait_for",
  "evaluate",
  "console_messages",
  "network_requests",
  "network_request",
  "handle_dialog",
  "emulate_media",
  "resize",
  "close",
  "click_and_capture",
  "form_state",
  "hand_off",
];
const ARGS: Record<string, string[]> = {
  snapshot: ["target", "depth", "boxes", "filename"],
  click: ["target", "element", "doubleClick", "button", "modifiers"],
  type: ["target", "text", "element", "submit", "slowly"],
  drag: ["startTarget", "endTarget", "startElement", "endElement"],
  drop: ["target", "element", "paths", "data"],
  take_screenshot: ["scale", "type", "filename", "fullPage", "element", "target"],
  evaluate: ["function", "element", "target", "filename"],
};

Deno.test("the agent signs in through a shadow root in a cross-origin frame by snapshot refs while two viewers watch and one holds control", async () => {
  await using corpus = corpusServer();
  const scriptDir = await Deno.makeTempDir();
  const script = `${scriptDir}/script.json`;
  await Deno.writeTextFile(
    script,
    JSON.stringify({
      named: {
        signin: [
          use("navigate", { url: corpus.page("frames") }),
          use("snapshot", {}),
          use("fill_form", {
            fields: [
              {
                target: refOf('textbox "Email"'),
                name: "Email",
                type: "textbox",
                value: "ada@example.com",
              },
              {
                target: refOf('textbox "Password"'),
                name: "Password",
                type: "textbox",
                value: "hunter2",
              },
            ],
          }),
          use("click", { target: refOf('button "Sign in"'), element: "Sign in" }),
          use("wait_for", { text: "Welcome, ada@example.com" }),
          { content: [{ type: "text", text: "signed in" }] },
        ],
      },
    }),
  );
  await using world = await seatWorld([{ name: "alpha" }], script);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  // Two people watch the seat's tab; the first takes the controller role before the agent acts.
  const [a, b] = await twoViewers(forge, lead);
  const va = (await a.next((m) => m.kind === "browser_view" && typeof m.viewer === "number"))
    .viewer as number;
  a.send({ kind: "browser_control", take: true });
  await b.next((m) => m.kind === "browser_view" && m.controller === va, 30_000);

  const results = toolResultsOf(await promptTurn(c, lead, "[[script:signin]] sign in"));
  assertEquals(
    results.map((r) => r.isError),
    [false, false, false, false, false],
    JSON.stringify(results),
  );
  // The refs the agent used were the snapshot's, inside the frame (an `f` ref).
  assertMatch(
    results[1].text,
    /form "Sign in" \[ref=f\d+e\d+\]:[\s\S]*textbox "Email" \[ref=f\d+e\d+\]/,
  );
  assertMatch(results[2].text, /textbox "Email" \[ref=f\d+e\d+\]: ada@example\.com/);
  assertMatch(results[2].text, /textbox "Password" \[ref=f\d+e\d+\]: \(a password, 7 characters\)/);
  assert(!results.some((r) => r.text.includes("hunter2")), "the password never comes back");
  assertMatch(results[4].text, /status \[ref=f\d+e\d+\]: Welcome, ada@example\.com/);
  const signin = await corpus.event((e) => e.what === "signin");
  assertEquals(signin, { what: "signin", user: "ada@example.com", pass: "7", remember: "false" });

  // Both viewers saw the agent's page paint; the person still holds the role, and the other
  // viewer's input is refused for it.
  for (const v of [a, b]) {
    await nextBrowserFrame(v, (f) => f.tab === 1 && f.pageWidth > 0);
    assert(new Set(framesOf(v).map((f) => f.bytes.join())).size > 1, "the page repainted");
  }
  // A re-attach re-announces the surface: the announcement after it names the controller now.
  const mark = b.frames.length;
  const fresh = (m: Record<string, unknown>) =>
    b.frames.slice(mark).some((f) => f.type === "json" && f.data === m);
  b.send({ kind: "browser_view", seat: lead, reply_to: 3 });
  const again = await b.next((m) => m.kind === "browser_view" && fresh(m), 30_000);
  assertEquals(again.controller, va, "the controller role held through the agent's turn");
  b.send({ kind: "browser_input", seq: 1, event: { type: "press", x: 10, y: 10 } });
  assertEquals((await b.next((m) => m.kind === "error", 30_000)).what, "browser_input");

  // The tool list the model got: the browser family under its own names, with its arguments;
  // the unsafe code runner stays off without its key.
  const requests = await world.apiRequests() as unknown as {
    kind: string;
    body: { tools?: { name: string; input_schema?: { properties?: Record<string, unknown> } }[] };
  }[];
  const tools = requests.filter((r) => r.kind === "main").at(-1)!.body.tools!;
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of NAMES) assert(byName.has(`mcp__forge__browser_${name}`), `${name} is listed`);
  for (const [name, args] of Object.entries(ARGS)) {
    const props = Object.keys(byName.get(`mcp__forge__browser_${name}`)!.input_schema!.properties!);
    for (const arg of args) assert(props.includes(arg), `browser_${name} takes ${arg}`);
  }
  assert(!byName.has("mcp__forge__browser_run_code_unsafe"), "run_code_unsafe is off by default");
  assertEquals(tools.filter((t) => t.name.startsWith("mcp__forge__browser__")), []);
  await Deno.remove(scriptDir, { recursive: true });
});
