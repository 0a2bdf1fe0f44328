// spec: The socket (the 16 MiB inbound bound): a frame nested past the bound is
// refused before JSON.parse builds it, naming the field it was nested under.
import { assertEquals } from "../tests/assert.ts";
import { depthExcess, MAX_INBOUND_DEPTH } from "./frame_guard.ts";

const nest = (n: number) => "[".repeat(n) + "]".repeat(n);

Deno.test("depth: a frame at the bound passes, one past it is refused naming its field", () => {
  // The object itself is one level, so the field's value may nest MAX - 1 deep.
  assertEquals(depthExcess(`{"kind":"ping","x":${nest(MAX_INBOUND_DEPTH - 1)}}`), null);
  assertEquals(depthExcess(`{"kind":"ping","x":${nest(MAX_INBOUND_DEPTH)}}`), { field: "x" });
  assertEquals(depthExcess(`{"kind":${nest(10_000)}}`), { field: "kind" });
  assertEquals(depthExcess(`{"kind":"command","command":${nest(10_000)}}`), { field: "command" });
  assertEquals(depthExcess(nest(100)), { field: null });
});

Deno.test("depth: brackets inside strings and escaped quotes do not count", () => {
  const s = JSON.stringify({ kind: "ping", text: "[".repeat(500) + '\\"{{{' });
  assertEquals(depthExcess(s), null);
  assertEquals(depthExcess(`{"a\\"b":${nest(200)}}`), { field: 'a"b' });
});

Deno.test("depth: an unterminated 7.5 M-level frame is refused, not walked to its end", () => {
  // The stress test's 14 MiB frame: the answer comes from its first ~85 characters.
  assertEquals(depthExcess(`{"kind":"ping","x":` + "[".repeat(7_500_000)), { field: "x" });
});
