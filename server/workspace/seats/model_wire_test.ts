import { assertEquals } from "../../../tests/assert.ts";
import { availableModel, unknownModelWhy } from "./model_wire.ts";

// The catalogue as CLI 2.1.332's initialize answer lists it (value, resolvedModel).
const rows = [
  ["default", "claude-opus-5-5"],
  ["opus", "claude-opus-5-5"],
  ["sonnet", "claude-sonnet-5-5"],
].map(([value, resolvedModel]) => availableModel({ value, resolvedModel }));

Deno.test("a catalogue alias, the id it resolves to, or a served name is a model the seat knows", () => {
  for (const name of ["sonnet", "claude-sonnet-5-5", "claude-sonnet-4-5"]) {
    assertEquals(unknownModelWhy(name, rows, ["claude-sonnet-4-5"]), null, name);
  }
});

Deno.test("any other name is refused naming it and what the seat offers", () => {
  assertEquals(
    unknownModelWhy("gpt-4", rows, ["claude-sonnet-4-5"]),
    "`gpt-4` is not a model this seat knows; it offers default, opus, sonnet, claude-sonnet-4-5",
  );
  assertEquals(
    unknownModelWhy("", rows, []),
    "an empty name is not a model this seat knows; it offers default, opus, sonnet",
  );
});

Deno.test("with no catalogue there is nothing to judge by: every name passes", () => {
  assertEquals(unknownModelWhy("gpt-4", [], []), null);
});
