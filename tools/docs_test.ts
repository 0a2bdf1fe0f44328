// docs/protocol.md is generated from protocol/'s schemas; a schema change without a regenerated
// page fails here, so the page a client author reads is always the wire.
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
  // A discriminated union is JSON Schema's oneOf, a plain one anyOf: both read as alternatives.
  const arm = (k: string) => z.object({ kind: z.literal(k) });
  assertEquals(
    t(z.discriminatedUnion("kind", [arm("a"), arm("b")])),
    '{kind: "a"} \\| {kind: "b"}',
  );
  assertEquals(t(z.union([z.literal("x"), z.object({ y: z.string() })])), '"x" \\| {y: string}');
  // A record names its values' type; a closed empty object is `{}`; a tuple its positions.
  assertEquals(t(z.record(z.string(), z.string())), "{string: string}");
  assertEquals(t(z.object({}).strict()), "{}");
  assertEquals(t(z.tuple([z.string(), z.number().nullable()])), "[string, number \\| null]");
});
