// Refs from browser_snapshot act on the element they name, wherever it lives (docs/browser.md):
// click, type, fill, select, hover and drag reach into an open shadow root inside a cross-origin
// frame and a form inside a shadow root; a ref the page has since replaced, or whose frame is
// gone, is refused in forge's words that send the agent back to browser_snapshot, and acts on
// nothing. Outcomes are the pages' own reports (fixtures/browser_corpus).
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserTools, refIn } from "../../tests/browser_tools.ts";
import { corpusServer } from "../../fixtures/browser_corpus/server.ts";

const ok = (r: { text: string; isError?: boolean }) => {
  assertEquals(r.isError, undefined, r.text);
  return r.text;
};
const STALE =
  /^ref (f\d+)?e\d+ names nothing on the page now: the page changed since the snapshot that listed it, or no snapshot of this page listed it\. Take a new browser_snapshot and use the refs it gives\.$/;
/** A browser_fill_form field for the element on `line` of a snapshot. */
const field = (snapshot: string, line: string, type: string, value: string) => ({
  target: refIn(snapshot, ref(line)),
  name: line,
  type,
  value,
});
const ref = (label: string) => new RegExp(`${label} \\[ref=((?:f\\d+)?e\\d+)\\]`);

Deno.test("refs type, select, hover and drag in a shadow root inside a cross-origin frame", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const board = ok(await tools.run("navigate", { url: corpus.page("workbench") }));
  const title = refIn(board, ref('textbox "Title"'));
  assertMatch(title, /^f\d+e\d+$/, "a frame's element carries its frame in its ref");

  ok(await tools.run("type", { target: title, text: "Ship it", element: "Title" }));
  await corpus.event((e) => e.what === "title" && e.value === "Ship it");
  // Focus leaves the frame for the outer page (as a page's script can move it, or as it can
  // sit there a moment while a cross-origin frame's focus crosses processes).
  const outer = await tools.run("evaluate", {
    function: "() => { const h = document.querySelector('h1'); h.tabIndex = -1; h.focus(); " +
      "return document.activeElement.localName; }",
  });
  assertEquals(ok(outer), '"h1"');
  // `slowly` presses key by key at the caret the field holds: after the fill, its end.
  ok(await tools.run("type", { target: title, text: "!", slowly: true }));
  await corpus.event((e) => e.what === "title" && e.value === "Ship it!");

  const chose = ok(
    await tools.run("select_option", {
      target: refIn(board, ref('combobox "Priority"')),
      values: ["High"],
    }),
  );
  assertMatch(chose, /Selected \["High"\]/);
  await corpus.event((e) => e.what === "prio" && e.value === "High");

  const hovered = ok(await tools.run("hover", { target: refIn(board, ref('button "Help"')) }));
  assertMatch(hovered, /status \[ref=f\d+e\d+\]: Drag a card to Done/);
  await corpus.event((e) => e.what === "hover");

  const dragged = ok(
    await tools.run("drag", {
      startTarget: refIn(board, /generic \[ref=(f\d+e\d+)\]: Fix login/),
      endTarget: refIn(board, ref('region "Done"')),
    }),
  );
  await corpus.event((e) => e.what === "drop" && e.value === "login");

  // A picture of one element in the frame: to the file named, and to the model as an image.
  const shot = await tools.run("take_screenshot", {
    scale: "css",
    target: refIn(dragged, ref('region "Done"')),
    filename: "done.png",
  });
  assertMatch(
    ok(shot),
    /^Took a screenshot of f\d+e\d+ in tab 1 \(\d+ bytes\), saved to .*done\.png$/,
  );
  const png = await Deno.readFile(`${tools.dir}/done.png`);
  assertEquals([...png.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG");
  assertEquals(shot.images?.map((i) => i.mimeType), ["image/png"]);
  assertMatch(
    dragged,
    /region "Done" \[ref=f\d+e\d+\]:\n\s+- heading "Done"[^\n]*\n\s+- generic \[ref=f\d+e\d+\]: Fix login/,
  );
});

Deno.test("refs fill a form in a shadow root (text, check, combobox) and click its submit", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const page = ok(await tools.run("navigate", { url: corpus.page("shadow_form") }));
  const filled = ok(
    await tools.run("fill_form", {
      fields: [
        field(page, 'textbox "Full name"', "textbox", "Ada Lovelace"),
        field(page, 'textbox "Work email"', "textbox", "ada@example.com"),
        field(page, 'combobox "Plan"', "combobox", "Enterprise"),
        field(page, 'checkbox "I accept the terms" \\[checked\\]', "checkbox", "false"),
        field(page, 'textbox "Street"', "textbox", "1 Rue"),
      ],
    }),
  );
  assertMatch(filled, /textbox "Full name" \[ref=(f\d+)?e\d+\]: Ada Lovelace/);
  assertMatch(filled, /option "Enterprise" \[selected\]/);
  assertMatch(filled, /checkbox "I accept the terms" \[ref=/, "unchecked");
  assertMatch(filled, /textbox "Street" \[ref=(f\d+)?e\d+\]: 1 Rue/, "a shadow root inside one");
  const saved = ok(
    await tools.run("click", { target: refIn(filled, ref('button "Create account"')) }),
  );
  assertMatch(saved, /status \[ref=(f\d+)?e\d+\]: Saved Ada Lovelace/);
});

Deno.test("a stale ref is refused in words and acts on nothing; a fresh snapshot's ref works", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  ok(await tools.run("navigate", { url: corpus.page("changing") }));
  // The page re-renders its list on its own once after loading; wait for that, then read refs.
  const before = ok(await tools.run("wait_for", { text: "Round 1 ready" }));
  const invoice = refIn(before, ref('button "Open Invoice"'));
  const after = ok(await tools.run("click", { target: refIn(before, ref('button "Refresh"')) }));
  assertMatch(after, /status \[ref=(f\d+)?e\d+\]: Round 2 ready/);

  const stale = await tools.run("click", { target: invoice });
  assertEquals(stale.isError, true);
  assertMatch(stale.text, STALE);
  assertMatch(stale.text, new RegExp(`^ref ${invoice} `));
  const each = { hover: {}, type: { text: "x" }, select_option: { values: ["x"] } };
  for (const [verb, args] of Object.entries(each)) {
    const r = await tools.run(verb, { target: invoice, ...args });
    assertMatch(r.text, STALE, verb);
  }
  const fresh = refIn(after, ref('button "Open Invoice"'));
  assert(fresh !== invoice, "the re-rendered button has a ref of its own");
  ok(await tools.run("click", { target: fresh }));
  await corpus.event((e) => e.what === "open" && e.round === "2");
  assertEquals(
    corpus.events.filter((e) => e.what === "open").map((e) => e.round),
    ["2"],
    "the stale ref clicked nothing",
  );

  // A frame's ref after the page moved on: its frame is gone.
  const frames = ok(await tools.run("navigate", { url: corpus.page("frames") }));
  const follow = refIn(frames, ref('button "Follow"'));
  ok(await tools.run("navigate", { url: corpus.page("table") }));
  assertMatch((await tools.run("click", { target: follow })).text, STALE);
});

Deno.test("a popup the page opened over its opener does not stall the agent's next action there", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const page = ok(await tools.run("navigate", { url: corpus.page("states") }));
  // The link opens a tab in the opener's window, in front of it: the opener is hidden now.
  ok(await tools.run("click", { target: refIn(page, ref('link "Open the report"')) }));
  // (Waits for the page to hear it went hidden, if it has not yet.)
  const hidden = await tools.run("evaluate", {
    function: "() => document.visibilityState === 'hidden' ? 'hidden' : new Promise((r) => " +
      "document.addEventListener('visibilitychange', () => r(document.visibilityState)))",
  });
  assertEquals(hidden.text, '"hidden"');
  const checked = ok(
    await tools.run("click", { target: refIn(page, ref('checkbox "Word wrap"')) }),
  );
  assertMatch(checked, /checkbox "Word wrap" \[checked\]/);
});

Deno.test("a snapshot of one element leaves the page's other refs acting", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const page = ok(await tools.run("navigate", { url: corpus.page("states") }));
  const part = ok(
    await tools.run("snapshot", { target: refIn(page, ref('toolbar "Formatting"')) }),
  );
  assertMatch(part, /```yaml\n- toolbar "Formatting" \[ref=(f\d+)?e\d+\]:\n\s+- button "Bold"/);
  assert(!part.includes("Word wrap"), "only the element's subtree");
  const checked = ok(
    await tools.run("click", { target: refIn(page, ref('checkbox "Word wrap"')) }),
  );
  assertMatch(checked, /checkbox "Word wrap" \[checked\]/);
  ok(await tools.run("click", { target: refIn(part, ref('button "Italic"')) }));
});
