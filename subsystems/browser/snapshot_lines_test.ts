// The aria snapshot's lines read back (snapshot_lines.ts): a password is masked in every shape
// Playwright's renderer prints a field's value in - the end of the element's line, after a key
// YAML had to quote, a `- text:` line of its own under a placeholder, under a role the page gave
// the field - and the proof that the mask held finds a password it could not mask.
import { assertEquals } from "../../tests/assert.ts";
import {
  lineShowingSecret,
  maskedPassword,
  maskSecrets,
  parseLine,
  showsAnyValue,
  subtreeOf,
} from "./snapshot_lines.ts";

const SECRET = "hunter2: x";
const MASK = maskedPassword(SECRET);

const PAGE = [
  `- textbox "Password" [ref=e5]: "${SECRET}"`,
  `- 'textbox "PIN: 4 digits" [ref=e6]': "${SECRET}"`,
  `- textbox "Secret" [ref=e7]:`,
  `  - /placeholder: at least 8 characters`,
  `  - text: "${SECRET}"`,
  `- button "Reveal" [ref=e8]: "${SECRET}"`,
  `- textbox "Name" [ref=e9]: Ada`,
  `- /url: "${SECRET}"`,
].join("\n");

Deno.test("a password is masked at a line's end, after a quoted key, as a text line and under any role", () => {
  assertEquals(maskSecrets(PAGE, [SECRET]).split("\n"), [
    `- textbox "Password" [ref=e5]: ${MASK}`,
    `- 'textbox "PIN: 4 digits" [ref=e6]': ${MASK}`,
    `- textbox "Secret" [ref=e7]:`,
    `  - /placeholder: at least 8 characters`,
    `  - text: ${MASK}`,
    `- button "Reveal" [ref=e8]: ${MASK}`,
    `- textbox "Name" [ref=e9]: Ada`,
    // A property is the page's markup, not a field's value: left, and caught by the proof.
    `- /url: "${SECRET}"`,
  ]);
  assertEquals(MASK, "(a password, 10 characters)");
});

Deno.test("the proof names the first line that still shows a password, and passes a clean snapshot", () => {
  const masked = maskSecrets(PAGE, [SECRET]);
  assertEquals(lineShowingSecret(masked, [SECRET]), 8);
  assertEquals(lineShowingSecret(masked.split("\n").slice(0, 7).join("\n"), [SECRET]), null);
  // Inside longer text (a field whose role the page took away merges into its parent's text).
  assertEquals(lineShowingSecret(`- paragraph: "Password ${SECRET}"`, [SECRET]), 1);
  // A line that is not a list item is read whole.
  assertEquals(lineShowingSecret(`  ${SECRET}`, [SECRET]), 1);
  // A short secret is matched as a whole value only: "ab" inside "table" is chance.
  assertEquals(lineShowingSecret("- cell: table", ["ab"]), null);
  assertEquals(lineShowingSecret("- cell: ab", ["ab"]), 1);
  assertEquals(lineShowingSecret(PAGE, []), null);
});

Deno.test("only a snapshot with no value on any line skips the page's password check", () => {
  assertEquals(showsAnyValue('- button "Go" [ref=e1]\n- link "Home":\n  - /url: /'), false);
  assertEquals(showsAnyValue('- button "Reveal" [ref=e8]: x'), true);
  assertEquals(showsAnyValue("- textbox:\n  - text: x"), true);
  assertEquals(showsAnyValue("not a list item"), true);
});

Deno.test("lines are taken apart by the renderer's quoting rules", () => {
  assertEquals(parseLine(`  - 'button "It''s: on" [ref=e2]': "a\\x01b"`), {
    head: "  - ",
    indent: 2,
    keyRaw: `'button "It''s: on" [ref=e2]'`,
    key: `button "It's: on" [ref=e2]`,
    role: "button",
    valueRaw: '"a\\x01b"',
    value: "a\u0001b",
  });
  assertEquals(parseLine("plain"), null);
});

Deno.test("one element's part is cut out of the page's snapshot by its ref", () => {
  const page =
    '- main [ref=e1]:\n  - form "Sign in" [ref=f3e2]:\n    - textbox [ref=f3e3]\n  - button "Go" [ref=e4]';
  assertEquals(subtreeOf(page, "f3e2"), '- form "Sign in" [ref=f3e2]:\n  - textbox [ref=f3e3]');
  assertEquals(subtreeOf(page, "e3"), null);
  assertEquals(subtreeOf(page, "e9"), null);
});
