// The agent's snapshot measured against Playwright itself (docs/browser.md, browser_snapshot): on
// every page of the corpus (fixtures/browser_corpus), forge's browser_snapshot - forge's host
// Chromium, read through its Playwright - lists every element that playwright-core's own
// `ariaSnapshot()` lists, same role and accessible name, in every frame. The reference is a
// separate Chromium that Playwright launches itself, on the same pages.
import { type Browser, chromium } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { type AriaNode, flatten, parseAria, unlisted } from "../../tests/aria_yaml.ts";
import { browserTools, yamlOf } from "../../tests/browser_tools.ts";
import { CHROMIUM } from "../../tests/web_harness.ts";
import { CORPUS_PAGES, corpusServer, SETTLED_TEXT } from "../../fixtures/browser_corpus/server.ts";

const ok = (r: { text: string; isError?: boolean }) => {
  assertEquals(r.isError, undefined, r.text);
  return r.text;
};

/** Playwright's own snapshot of a page: each frame's `ariaSnapshot()`, every frame. */
async function reference(browser: Browser, url: string, settled?: string): Promise<AriaNode[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(url);
    if (settled) await page.getByText(settled).waitFor();
    const nodes: AriaNode[] = [];
    for (const frame of page.frames()) {
      nodes.push(...parseAria(await frame.locator("body").ariaSnapshot()));
    }
    return nodes;
  } finally {
    await page.close();
  }
}

Deno.test("on every corpus page browser_snapshot lists every element Playwright's ariaSnapshot lists, same role and name", async (t) => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const playwright = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    for (const name of CORPUS_PAGES) {
      await t.step(name, async () => {
        const url = corpus.page(name);
        const settled = SETTLED_TEXT[name];
        ok(await tools.run("navigate", { url }));
        if (settled) ok(await tools.run("wait_for", { text: settled }));
        const mine = parseAria(yamlOf(ok(await tools.run("snapshot", {}))));
        const theirs = await reference(playwright, url, settled);
        const listed = flatten(theirs).length;
        assert(listed > 5, `Playwright listed ${listed} elements on ${name}`);
        assertEquals(
          unlisted(theirs, mine).map((n) => n.line),
          [],
          `elements of ${name} Playwright lists that forge's snapshot does not`,
        );
      });
    }
  } finally {
    await playwright.close();
  }
});

Deno.test("the snapshot enters shadow roots and frames, names by aria-labelledby, shows states, leaves hidden content out", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools();
  const snap = async (
    page: "shadow_form" | "frames" | "states" | "combobox" | "table" | "dialog",
  ) => yamlOf(ok(await tools.run("navigate", { url: corpus.page(page) })));

  // A form in an open shadow root, and an address block in a shadow root inside it.
  const shadow = await snap("shadow_form");
  assertMatch(shadow, /form "New account" \[ref=(f\d+)?e\d+]/);
  assertMatch(shadow, /textbox "Full name" \[ref=(f\d+)?e\d+]/);
  assertMatch(shadow, /As it appears on your card/, "the aria-describedby text is listed");
  assertMatch(shadow, /textbox "Work email" \[ref=(f\d+)?e\d+]/, "named by aria-labelledby");
  assertMatch(shadow, /combobox "Plan" \[ref=(f\d+)?e\d+]/);
  assertMatch(shadow, /checkbox "I accept the terms" \[checked\] \[ref=(f\d+)?e\d+]/);
  assertMatch(
    shadow,
    /group "Address" \[ref=(f\d+)?e\d+]:[\s\S]*textbox "City" \[ref=(f\d+)?e\d+]: Lyon/,
  );

  // Same-origin frames two deep and a cross-origin frame (another site: its own process), each
  // element ref'd with its frame.
  const frames = await snap("frames");
  assertMatch(frames, /iframe \[ref=(f\d+)?e\d+]:\n\s+- generic \[ref=f\d+e\d+\]:/);
  assertMatch(frames, /link "Release notes" \[ref=f\d+e\d+\]/);
  assertMatch(frames, /button "Refresh forecast" \[ref=f\d+e\d+\]/);
  assertMatch(frames, /form "Sign in" \[ref=f\d+e\d+\]:[\s\S]*textbox "Password" \[ref=f\d+e\d+\]/);

  const states = await snap("states");
  assertMatch(states, /heading "A div that is a heading" \[level=3\]/, "a role override");
  assertMatch(states, /button "Bold" \[pressed\]/);
  assertMatch(states, /button "Underline" \[pressed=mixed\]/);
  assertMatch(states, /tab "Edit" \[selected\]/);
  assertMatch(states, /button "More options" \[expanded\]/);
  assertMatch(states, /checkbox "Spell check" \[checked\]/);
  assertMatch(states, /radio "Light" \[checked\]/);
  assertMatch(states, /spinbutton "Font size" \[disabled\]/);
  assertMatch(states, /button "Publish" \[disabled\]/);
  assertMatch(states, /textbox "Document title" \[ref=(f\d+)?e\d+]: Draft/, "two labelledby ids");
  for (const hidden of ["Hidden by display", "Hidden by visibility", "Hidden by attribute"]) {
    assert(!states.includes(hidden), `${hidden} is left out`);
  }
  assert(!states.includes("secret"), "a hidden input's value is left out");

  const combo = await snap("combobox");
  assertMatch(combo, /combobox "Destination" \[expanded\] \[ref=(f\d+)?e\d+]: Ly/);
  assertMatch(combo, /listbox "Destination" \[ref=(f\d+)?e\d+]:\n\s+- option "Lyon" \[selected\]/);
  assertMatch(combo, /option "Lima" \[disabled\]/);
  assertMatch(combo, /listbox "Meal" \[ref=(f\d+)?e\d+]:/);

  const table = await snap("table");
  assertMatch(table, /table "Revenue by region, in thousands"/);
  assertMatch(table, /columnheader "Region"/);
  assertMatch(table, /rowheader "North"/);
  assertMatch(table, /cell "120"/);
  assertMatch(table, /grid "Team roster"/);

  const dialog = await snap("dialog");
  assertMatch(dialog, /dialog "Delete \\"forge\\"\?" \[ref=(f\d+)?e\d+\]:/);
  assertMatch(dialog, /button "Delete" \[disabled\]/);
});
