// The generated pages (docs/protocol.md whole, configuration.md's key tables, architecture.md's
// handler map) are what their sources say; a schema, key or manifest change without a
// regenerated page fails here. The README stays short and every relative link resolves.
import { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { COMMANDS, Slot, UPDATE_NAMES, updateSpec } from "../protocol/mod.ts";
import { key } from "../server/config/spec.ts";
import { render, typeOf } from "./docs.ts";
import { handlerFile, unkeyedHandlers } from "./docs_arch.ts";
import { defaultCell, kindCell, rangeOf } from "./docs_config.ts";
import { generatedPages, splice, stalePages } from "./docs_pages.ts";

const root = new URL("../", import.meta.url);

Deno.test("every generated page is what its source says (run `tools/deno.sh task docs`)", async () => {
  assertEquals(await stalePages(generatedPages(render)), []);
});

Deno.test("docs: a generated part is spliced between its markers and nowhere else", () => {
  const page = (body: string) =>
    `intro\n<!-- BEGIN GENERATED x: \`tools/deno.sh task docs\` writes this part -->${body}` +
    `<!-- END GENERATED x -->\noutro\n`;
  assertEquals(splice(page("\nold\n"), "x", "new"), page("\n\nnew\n\n"));
  let said = "";
  try {
    splice("no markers here", "x", "new");
  } catch (err) {
    said = (err as Error).message;
  }
  assert(said.includes("has no x markers"), said);
});

Deno.test("docs: a key's kind, range and default read as a person writes them", () => {
  const port = key.number("server.port", 8790, "restart", "the port", [1, 65535]);
  assertEquals([kindCell(port), rangeOf(port), defaultCell(port)], [
    "number",
    "1..65535",
    "`8790`",
  ]);
  const mode = key.enum("m.mode", ["auto", "hold"], null, "live", "how");
  assertEquals([kindCell(mode), rangeOf(mode), defaultCell(mode)], [
    "`auto` / `hold`",
    null,
    "unset",
  ]);
  assertEquals(kindCell(key.table("t.env", "live", "vars")), "table of strings");
  assertEquals(kindCell(key.list("l.x", [], "live", "xs")), "list of strings");
});

Deno.test("docs: a handler is found where it is defined, not where it is mentioned", () => {
  const files = [
    { path: "a.ts", text: 'const names = ["prompt"]; // mentions it\n' },
    { path: "b.ts", text: "return {\n  commands: {\n    prompt: (c) => run(c),\n  },\n};\n" },
    { path: "c.ts", text: "subjects: { board: subject },\n" },
  ];
  assertEquals(handlerFile("prompt", files), "b.ts");
  assertEquals(handlerFile("board", files), "c.ts");
  // Nothing defines it: where the name is first written as a string.
  assertEquals(handlerFile("names", [files[0]]), "a.ts");
});

// The naming rule (docs/architecture.md > Where a wire name is handled): every name an area
// declares has a handler keyed by that exact name in the area's own files, so the map's row is
// the handler itself and never a guess.
Deno.test("docs: every declared wire name's handler is keyed by the name itself", () => {
  assertEquals(unkeyedHandlers(), []);
});

/** The relative link targets of a Markdown text (inline links and images), code spans skipped. */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1])
    .filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith("#"));
}

Deno.test("docs: links are read from prose, not from code", () => {
  const text = "see [a](docs/a.md#x) and ![p](shots/p.png)\n`[no](code.md)`\n" +
    "```\n[no](block.md)\n```\n[web](https://example.org) [here](#top)\n";
  assertEquals(relativeLinks(text), ["docs/a.md#x", "shots/p.png"]);
});

Deno.test("every relative link in README.md and docs/*.md resolves inside the repository", async () => {
  const pages = [
    "README.md",
    ...[...Deno.readDirSync(new URL("docs/", root))]
      .filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => `docs/${e.name}`),
  ];
  const broken: string[] = [];
  for (const page of pages) {
    const base = new URL(page, root);
    for (const link of relativeLinks(await Deno.readTextFile(base))) {
      const target = new URL(link.split("#")[0], base);
      const inside = target.href.startsWith(root.href);
      const there = inside && (await Deno.stat(target).then(() => true, () => false));
      if (!there) broken.push(`${page}: ${link}${inside ? "" : " (outside the repository)"}`);
    }
  }
  assertEquals(broken, []);
});

Deno.test("the README is short: at most 12 KB", async () => {
  const size = (await Deno.stat(new URL("README.md", root))).size;
  assert(size <= 12 * 1024, `README.md is ${size} bytes; move detail into docs/`);
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
