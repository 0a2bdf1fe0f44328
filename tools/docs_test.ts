// docs/protocol.md is generated from protocol/'s schemas; a schema change without a regenerated
// page fails here, so the page a client author reads is always the wire (issue 13).
import { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { COMMANDS, Slot, UPDATE_NAMES, updateSpec } from "../protocol/mod.ts";
import { render, typeOf } from "./docs.ts";

Deno.test("docs/protocol.md is what the schemas say (run `tools/deno.sh task docs`)", async () => {
  const committed = await Deno.readTextFile(new URL("../docs/protocol.md", import.meta.url));
  assert(committed === render(), "docs/protocol.md is stale: run `tools/deno.sh task docs`");
});

Deno.test("docs/protocol.md has every update's meaning and fields, every command's reply", () => {
  const page = render();
  const section = (name: string) => {
    const at = page.indexOf(`### \`${name}\`\n`);
    assert(at >= 0, `no section for ${name}`);
    return page.slice(at, page.indexOf("\n### ", at + 1));
  };
  for (const name of UPDATE_NAMES) {
    const text = section(name);
    const spec = updateSpec(name);
    assert(text.includes(spec.about), `${name}: its meaning`);
    assert(text.includes("Reaches: "), `${name}: who hears it`);
    if (spec.fields !== null) assert(text.includes("| `"), `${name}: its fields`);
  }
  for (const name of Object.keys(COMMANDS)) assert(section(name).includes("reply_to: "), name);
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
