import { assertEquals } from "../../../../tests/assert.ts";
import { fitCells } from "./terminal_fit.ts";

Deno.test("terminal fit: whole cells of a phone's width and the height below the bar", () => {
  // 390 px less the host's padding, cells of a 13 px monospace font.
  assertEquals(fitCells({ width: 366, height: 600 }, { width: 7.8, height: 15 }), {
    cols: 46,
    rows: 40,
  });
});

Deno.test("terminal fit: never under a readable floor, never over the server's bound", () => {
  assertEquals(fitCells({ width: 50, height: 20 }, { width: 8, height: 16 }), {
    cols: 20,
    rows: 5,
  });
  assertEquals(fitCells({ width: 90_000, height: 90_000 }, { width: 8, height: 16 }), {
    cols: 1000,
    rows: 1000,
  });
});

Deno.test("terminal fit: nothing measured yet fits nothing", () => {
  assertEquals(fitCells({ width: 366, height: 600 }, { width: 0, height: 15 }), null);
  assertEquals(fitCells({ width: 0, height: 600 }, { width: 8, height: 15 }), null);
});
