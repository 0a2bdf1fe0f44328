// docs/protocol.md is generated from protocol/'s schemas; a schema change without a regenerated
// page fails here, so the page a client author reads is always the wire (issue 13).
import { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { Slot } from "../protocol/mod.ts";
import { render, typeOf } from "./docs.ts";

Deno.test("docs/protocol.md is what the schemas say (run `tools/deno.sh task docs`)", async () => {
  const committed = await Deno.readTextFile(new URL("../docs/protocol.md", import.meta.url));
  assert(committed === render(), "docs/protocol.md is stale: run `tools/deno.sh task docs`");
});

Deno.test("docs: field types render compactly", () => {
  const t = (s: z.ZodType) => typeOf(z.toJSONSchema(s, { unrepresentable: "any" }) as never);
  assertEquals(t(Slot), "Slot");
  assertEquals(t(Slot.nullable()), "Slot or null");
  assertEquals(t(z.array(z.number().int())), "[integer]");
  assertEquals(t(z.enum(["a", "b"])), '"a" \\| "b"');
  assertEquals(t(z.object({ session: Slot })), "{session: Slot}");
  assertEquals(t(z.json()), "JSON");
});
