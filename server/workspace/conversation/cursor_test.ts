import { assertEquals } from "../../../tests/assert.ts";
import { parseRowCursor, rowCursor } from "./cursor.ts";

Deno.test("spec The cursor is a position: a row cursor round-trips its byte offset and is told from a window cursor", () => {
  for (const n of [0, 1, 48213, 2 ** 40]) assertEquals(parseRowCursor(rowCursor(n)), n);
  assertEquals(rowCursor(48213), "t:48213");
  for (
    const s of ["120", "t:", "t:-1", "t:01", "t:1.5", "t:1e3", "x:12", "t:99999999999999999999"]
  ) {
    assertEquals(parseRowCursor(s), null, s);
  }
});
