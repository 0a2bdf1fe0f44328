// The comparison the corpus test makes (aria_yaml.ts) catches what it must: an element missing,
// a wrong name, a wrong role, one element standing in for two; and accepts what Playwright's AI
// mode rightly prints differently (a name its descendants print, a generic wrapper, refs).
import { assertEquals } from "./assert.ts";
import { AriaYamlError, flatten, parseAria, unlisted } from "./aria_yaml.ts";

const REFERENCE = `- heading "Outer link" [level=1]:
  - text: Outer
  - link "link":
    - /url: "#"
- button "Bold" [pressed]
- textbox "Title": Draft
- list:
  - listitem: one
  - listitem: two
- dialog "Delete \\"forge\\"?":
  - button "Open"
  - button "Open"`;

const TOOL = `- generic [ref=e1]:
  - heading [level=1] [ref=e2]:
    - text: Outer
    - link "link" [ref=e3] [cursor=pointer]:
      - /url: "#"
  - button "Bold" [pressed] [ref=e4]
  - textbox "Title" [ref=e5]: Draft
  - list [ref=e6]:
    - listitem [ref=e7]: one
    - listitem [ref=e8]: two
  - dialog "Delete \\"forge\\"?" [ref=f1e9]:
    - button "Open" [ref=f1e10]
    - button "Open" [ref=f1e11]`;

const lines = (yaml: string) => unlisted(parseAria(REFERENCE), parseAria(yaml)).map((n) => n.line);

Deno.test("parseAria reads roles, names (escapes too), states and text", () => {
  const nodes = flatten(parseAria(REFERENCE));
  assertEquals(nodes.map((n) => `${n.role}|${n.name}`), [
    "heading|Outer link",
    "link|link",
    "button|Bold",
    "textbox|Title",
    "list|null",
    "listitem|null",
    "listitem|null",
    'dialog|Delete "forge"?',
    "button|Open",
    "button|Open",
  ]);
  assertEquals(nodes[0].children, ["Outer", nodes[1]]);
});

Deno.test("the AI-mode snapshot of the same page lists every element: nothing unlisted", () => {
  assertEquals(lines(TOOL), []);
});

Deno.test("a missing element, a wrong name, a wrong role and a lost duplicate are each unlisted", () => {
  assertEquals(lines(TOOL.replace(/\n {2}- button "Bold".*/, "")), ['- button "Bold" [pressed]']);
  assertEquals(lines(TOOL.replace('textbox "Title"', 'textbox "Name"')), [
    '- textbox "Title": Draft',
  ]);
  assertEquals(lines(TOOL.replace("- list [ref=e6]", "- group [ref=e6]")), ["- list:"]);
  assertEquals(lines(TOOL.replace(/\n {4}- button "Open" \[ref=f1e11\]/, "")), [
    '- button "Open"',
  ]);
  // A name left out is accepted only when the descendants print exactly it.
  assertEquals(lines(TOOL.replace("- text: Outer", "- text: Inner")), [
    '- heading "Outer link" [level=1]:',
  ]);
});

Deno.test("a key YAML had to quote reads as its role, name and value", () => {
  const nodes = flatten(parseAria(
    `- 'textbox "PIN: 4 digits" [ref=e6]': "1234"\n- 'button "It''s: on"'\n- text: "a: b"`,
  ));
  assertEquals(nodes.map((n) => [n.role, n.name, n.children]), [
    ["textbox", "PIN: 4 digits", ["1234"]],
    ["button", "It's: on", []],
  ]);
});

Deno.test("yaml the parser cannot read is refused in words naming the line, never passed over", () => {
  const refused = (yaml: string) => {
    try {
      parseAria(yaml);
    } catch (err) {
      if (err instanceof AriaYamlError) return err.message;
      throw err;
    }
    throw new Error(`read without complaint: ${yaml}`);
  };
  assertEquals(
    refused('- list:\n  listitem "x"'),
    'aria snapshot line 2 is not a list item (`- ...`): "  listitem \\"x\\""',
  );
  assertEquals(
    refused('- \'button "Open": x'),
    'aria snapshot line 1 has a quoted key with no closing quote: "- \'button \\"Open\\": x"',
  );
  assertEquals(
    refused('- button "Open" [ref=e1] extra'),
    'aria snapshot line 1 does not start `role "name" [state]`: ' +
      '"- button \\"Open\\" [ref=e1] extra"',
  );
});
