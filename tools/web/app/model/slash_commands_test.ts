import { assertEquals } from "../../../../tests/assert.ts";
import { pickedText, slashKey, slashMatches } from "./slash_commands.ts";

const cmd = (name: string) => ({ name, description: `${name} it`, input_hint: "" });
const CLI = [cmd("compact"), cmd("context"), cmd("cost"), cmd("review"), cmd("/init")];
const names = (text: string) => slashMatches(text, CLI).map((c) => c.name);

Deno.test("slash commands: a lone slash offers them all, typing narrows, starts first", () => {
  assertEquals(names("/"), ["compact", "context", "cost", "review", "/init"]);
  assertEquals(names("/co"), ["compact", "context", "cost"]);
  assertEquals(names("/in"), ["/init"]);
  assertEquals(names("/ev"), ["review"]);
});

Deno.test("slash commands: words, arguments and a whole name offer nothing", () => {
  assertEquals(names("hello /co"), []);
  assertEquals(names("/compact now"), []);
  assertEquals(names("/compact"), []);
  assertEquals(names("/zzz"), []);
});

Deno.test("slash commands: the picked command leads the text with a slash and a space", () => {
  assertEquals(pickedText(cmd("compact")), "/compact ");
  assertEquals(pickedText(cmd("/init")), "/init ");
});

Deno.test("slash commands: arrows wrap round the rows, Enter and Tab pick, Escape closes", () => {
  assertEquals(slashKey("ArrowDown", 2, 3), { kind: "move", to: 0 });
  assertEquals(slashKey("ArrowUp", 0, 3), { kind: "move", to: 2 });
  assertEquals(slashKey("Enter", 1, 3), { kind: "pick" });
  assertEquals(slashKey("Tab", 1, 3), { kind: "pick" });
  assertEquals(slashKey("Escape", 1, 3), { kind: "close" });
  assertEquals(slashKey("a", 1, 3), null);
  assertEquals(slashKey("Enter", 0, 0), null);
});

Deno.test("slash commands: one that does nothing in a stream-json session is not offered", () => {
  const cli = [cmd("focus"), cmd("/fast"), cmd("config"), cmd("agents"), cmd("__remote-workflow")];
  assertEquals(slashMatches("/", cli).map((c) => c.name), ["config"]);
  assertEquals(slashMatches("/fo", cli), []);
});
