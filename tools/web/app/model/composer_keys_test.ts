import { assertEquals } from "../../../../tests/assert.ts";
import { composerHint, pushToTalkWords, returnSends } from "./composer_keys.ts";

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

Deno.test("composer keys: the push-to-talk hint names the key this machine has, when it talks", () => {
  const on = { dictation: true, mac: true };
  assertEquals(pushToTalkWords("right_cmd", "auto", on), "push-to-talk: right cmd (auto)");
  assertEquals(
    pushToTalkWords("right_cmd", "auto", { ...on, mac: false }),
    "push-to-talk: right Super (auto)",
  );
  // Dictation off on the server: no key talks, so no hint (the mic says why).
  assertEquals(pushToTalkWords("right_cmd", "auto", { ...on, dictation: false }), null);
  assertEquals(pushToTalkWords("off", "hold", on), null);
});
