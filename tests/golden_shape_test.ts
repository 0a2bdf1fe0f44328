import { assertEquals } from "./assert.ts";
import { shapeDiff, shapeOf } from "./golden_shape.ts";

// A drift in a snapshot's fields fails its golden test; the diff names each path.
Deno.test("a shape diff names a renamed field, a type change and a list that emptied", () => {
  const before = shapeOf({ a: 1, b: { c: "x" }, rows: [{ id: "1" }], raw: { any: 1 } }, ["raw"]);
  const after = shapeOf({ a: null, b: { d: "x" }, rows: [], raw: [] }, ["raw"]);
  assertEquals(shapeDiff(before, after).sort(), [
    'a: recorded "number", now "null"',
    "b.c: recorded, now missing",
    "b.d: new, not recorded",
    "rows: recorded a list of rows, now an empty list",
  ]);
  assertEquals(shapeDiff(before, before), []);
});
