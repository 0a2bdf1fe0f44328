// The whole tool list the model gets for the browser family (tool_specs.ts, tool_specs_page.ts):
// every tool of @playwright/mcp's core set under its own name, forge's additions, each tool's
// required and optional arguments as the family states them - `profile` on every one - and the
// enumerated values; and a call naming another session's profile is refused in forge's words.
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserTools } from "../../tests/browser_tools.ts";
import { listEntry } from "../../server/workspace/mcp/catalog.ts";
import { BROWSER_TOOLS } from "./tool_specs.ts";

/** Each tool: its required arguments, then its optional ones (`profile` aside: every tool's). */
const FAMILY: Record<string, [string[], string[]]> = {
  navigate: [["url"], []],
  navigate_back: [[], []],
  navigate_forward: [[], []], // forge's: back's counterpart
  snapshot: [[], ["target", "filename", "depth", "boxes"]],
  find: [[], ["text", "regex", "filename"]],
  take_screenshot: [["scale"], ["type", "filename", "fullPage", "element", "target"]],
  click: [["target"], ["element", "doubleClick", "button", "modifiers", "force"]],
  type: [["target", "text"], ["element", "submit", "slowly"]],
  press_key: [["key"], []],
  fill_form: [["fields"], []],
  select_option: [["target", "values"], ["element"]],
  hover: [["target"], ["element"]],
  drag: [["startTarget", "endTarget"], ["startElement", "endElement"]],
  drop: [["target"], ["element", "paths", "data"]],
  file_upload: [[], ["paths"]],
  tabs: [["action"], ["index", "url"]],
  wait_for: [[], ["time", "text", "textGone", "expression"]],
  evaluate: [["function"], ["element", "target", "filename"]],
  run_code_unsafe: [[], ["code", "filename"]],
  console_messages: [["level"], ["all", "filename"]],
  network_requests: [["static"], ["filter", "filename"]],
  network_request: [["index"], ["part", "filename"]],
  handle_dialog: [["accept"], ["promptText"]],
  emulate_media: [[], ["colorScheme", "reducedMotion", "forcedColors", "contrast", "media"]],
  resize: [["width", "height"], []],
  close: [[], []],
  click_and_capture: [["target"], ["element", "settleMs"]],
  form_state: [[], ["target", "element"]],
  hand_off: [["reason"], ["page"]], // `page`: forge's, a tab other than the current one
};

type Schema = {
  properties: Record<string, { enum?: unknown[]; anyOf?: { enum?: unknown[] }[] }>;
  required?: string[];
};
const schemaOf = (name: string) => {
  const spec = BROWSER_TOOLS.find((t) => t.name === `browser_${name}`)!;
  return listEntry(spec).inputSchema as unknown as Schema;
};

Deno.test("the tool list carries every tool of the family with its required and optional arguments", () => {
  assertEquals(
    BROWSER_TOOLS.map((t) => t.name).sort(),
    Object.keys(FAMILY).map((n) => `browser_${n}`).sort(),
  );
  for (const [name, [required, optional]] of Object.entries(FAMILY)) {
    const schema = schemaOf(name);
    assertEquals([...(schema.required ?? [])].sort(), [...required].sort(), `${name}: required`);
    assertEquals(
      Object.keys(schema.properties).sort(),
      [...required, ...optional, "profile"].sort(),
      `${name}: arguments`,
    );
  }
});

Deno.test("the enumerated arguments take the family's values, and tabs' index counts from 0", () => {
  const values = (name: string, arg: string) => {
    const p = schemaOf(name).properties[arg];
    return (p.enum ?? p.anyOf?.flatMap((a) => a.enum ?? [null]) ?? []).map(String).sort();
  };
  assertEquals(values("emulate_media", "colorScheme"), ["dark", "light", "null"]);
  assertEquals(values("emulate_media", "reducedMotion"), ["no-preference", "null", "reduce"]);
  assertEquals(values("emulate_media", "forcedColors"), ["active", "none", "null"]);
  assertEquals(values("emulate_media", "contrast"), ["more", "no-preference", "null"]);
  assertEquals(values("emulate_media", "media"), ["null", "print", "screen"]);
  assertEquals(values("take_screenshot", "scale"), ["css", "device"]);
  assertEquals(values("console_messages", "level"), ["debug", "error", "info", "warning"]);
  assertEquals(values("tabs", "action"), ["close", "list", "new", "select"]);
  assertEquals(
    (schemaOf("tabs").properties.index as unknown as { minimum: number }).minimum,
    0,
  );
});

Deno.test("a call may name its own profile; another profile is refused in forge's words", async () => {
  await using tools = await browserTools();
  const other = await tools.run("tabs", { action: "list", profile: "work" });
  assertEquals(other.isError, true);
  assertEquals(
    other.text,
    `this session's browser profile is "default" (forge.toml: its project's browser_profile, ` +
      `else its org's, else default); profile "work" is not one it can use. Omit profile, or ` +
      `name "default".`,
  );
  for (const own of ["default", "Acme/default"]) {
    assertMatch((await tools.run("tabs", { action: "list", profile: own })).text, /^### Open tabs/);
  }
});
