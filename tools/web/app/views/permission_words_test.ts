import { assertEquals } from "../../../../tests/assert.ts";
import { permissionWords } from "./permission_words.ts";

Deno.test("notification permission reads in words, never the API's value", () => {
  assertEquals(permissionWords("granted"), "on");
  assertEquals(permissionWords("default"), "off (not asked yet)");
  assertEquals(permissionWords("denied"), "blocked (this browser's site settings can allow them)");
  assertEquals(
    permissionWords("unavailable"),
    "unavailable here (a page needs https, or localhost, to notify)",
  );
});
