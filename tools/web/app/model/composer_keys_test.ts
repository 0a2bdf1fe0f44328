import { assertEquals } from "../../../../tests/assert.ts";
import { composerHint, returnSends } from "./composer_keys.ts";

Deno.test("composer keys: at a desk Return sends and Shift+Return writes a new line", () => {
  assertEquals(returnSends({ key: "Enter", shiftKey: false }, false), true);
  assertEquals(returnSends({ key: "Enter", shiftKey: true }, false), false);
  assertEquals(returnSends({ key: "a", shiftKey: false }, false), false);
  assertEquals(composerHint(false).includes("Shift+Enter"), true);
});

Deno.test("composer keys: on a touch screen Return writes a new line; Send sends", () => {
  assertEquals(returnSends({ key: "Enter", shiftKey: false }, true), false);
  assertEquals(composerHint(true).includes("Shift"), false);
  assertEquals(composerHint(true).includes("Send sends"), true);
});

Deno.test("composer keys: Return that ends an input method's word sends nothing", () => {
  assertEquals(returnSends({ key: "Enter", shiftKey: false, isComposing: true }, false), false);
});
