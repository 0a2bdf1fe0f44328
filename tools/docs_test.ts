// The generated pages (docs/protocol.md whole, configuration.md's key tables, architecture.md's
// handler map) are what their sources say; a schema, key or manifest change without a
// regenerated page fails here. The README stays short and every link lands, down to the heading.
import { z } from "zod";
import { assert, assertEquals } from "../tests/assert.ts";
import { COMMANDS, Slot, UPDATE_NAMES, updateSpec } from "../protocol/mod.ts";
import { key } from "../server/config/spec.ts";
import { render, typeOf } from "./docs.ts";
import { handlerFile, unkeyedHandlers } from "./docs_arch.ts";
import { defaultCell, kindCell, rangeOf } from "./docs_config.ts";
import { generatedPages, splice, stalePages } from "./docs_pages.ts";
import { brokenLinks, headingAnchors, linkTargets } from "./docs_links.ts";

const root = new URL("../", import.meta.url);

Deno.test("every generated page is what its source says (run `tools/deno.sh task docs`)", async () => {
  assertEquals(await stalePages(generatedPages(render)), []);
});

// The task a person runs after changing the wire, under the task's own permissions (the test
// itself runs with all of them, so only a run of the task finds one it lacks).
Deno.test("`task docs --check` runs under its own flags and finds the pages current", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "docs", "--check"],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const said = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  assert(out.success, said);
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

Deno.test("docs: links are read from prose and tags, not from code", () => {
  const text = "see [a](docs/a.md#x) and ![p](shots/p.png)\n`[no](code.md)`\n" +
    "```\n[no](block.md)\n```\n[web](https://example.org) [here](#top)\n" +
    '<img src="shots/q.png" width="9" alt="q"> <a href="b.md#y">b</a>\n';
  assertEquals(linkTargets(text), [
    "docs/a.md#x",
    "shots/p.png",
    "https://example.org",
    "#top",
    "shots/q.png",
    "b.md#y",
  ]);
});

Deno.test("docs: a heading's anchor is GitHub's slug of its text", () => {
  const page = "# forge's state: one keeper\n## The status page (`home.service_status`)\n" +
    "## Over TLS\n### Over TLS\n## See [the client](client.md) <sup>new</sup>\n" +
    "```toml\n# not_a_heading = 1\n```\n";
  assertEquals([...headingAnchors(page)], [
    "forges-state-one-keeper",
    "the-status-page-homeservice_status",
    "over-tls",
    "over-tls-1",
    "see-the-client-new",
  ]);
});

Deno.test("docs: a missing file, image, heading or own anchor is a broken link", async () => {
  const page = "## Here\n[fine](#here) [fine](setup.md#setting-up) [fine](../README.md#set-up)\n" +
    "[gone](nothing.md) [stray](setup.md#no-such-heading) [self](#not-here)\n" +
    '<img src="screenshots/no-such-shot.png" alt="x"> [out](../../x.md) [code](../main.ts#x)\n';
  assertEquals(await brokenLinks(root, "docs/fixture.md", page), [
    "docs/fixture.md: nothing.md (no such file)",
    "docs/fixture.md: setup.md#no-such-heading (no heading there is #no-such-heading)",
    "docs/fixture.md: #not-here (no heading there is #not-here)",
    "docs/fixture.md: ../../x.md (outside the repository)",
    "docs/fixture.md: ../main.ts#x (a fragment on a page that is not Markdown)",
    "docs/fixture.md: screenshots/no-such-shot.png (no such file)",
  ]);
});

Deno.test("every link in README.md and docs/*.md lands: file, image and heading", async () => {
  const pages = [
    "README.md",
    ...[...Deno.readDirSync(new URL("docs/", root))]
      .filter((e) => e.isFile && e.name.endsWith(".md")).map((e) => `docs/${e.name}`),
  ];
  const broken: string[] = [];
  let links = 0;
  for (const page of pages) {
    const text = await Deno.readTextFile(new URL(page, root));
    links += linkTargets(text).length;
    broken.push(...await brokenLinks(root, page, text));
  }
  assertEquals(broken, []);
  assert(links > 50, `only ${links} links found: the reader lost them`);
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
  // A tagged union too long for a cell names each arm's tag and fields, not their types.
  const wide = (k: string) =>
    z.object({ kind: z.literal(k), [`${k}_detail`]: z.array(z.tuple([z.string(), z.number()])) });
  const [first, ...rest] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"].map(wide);
  const many = z.discriminatedUnion("kind", [first, ...rest]);
  assertEquals(
    t(many),
    '{kind: "alpha", alpha_detail} \\| {kind: "beta", beta_detail} \\| ' +
      '{kind: "gamma", gamma_detail} \\| {kind: "delta", delta_detail} \\| ' +
      '{kind: "epsilon", epsilon_detail} \\| {kind: "zeta", zeta_detail}',
  );
  // A record names its values' type; a closed empty object is `{}`; a tuple its positions.
  assertEquals(t(z.record(z.string(), z.string())), "{string: string}");
  assertEquals(t(z.object({}).strict()), "{}");
  assertEquals(t(z.tuple([z.string(), z.number().nullable()])), "[string, number \\| null]");
});
