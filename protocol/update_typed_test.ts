import { assertEquals } from "../tests/assert.ts";
import { type SessionUpdate, update } from "./update.ts";

// The emit path is typed: a misspelt update name, a missing field or a wrong field type does not
// compile. Each `@ts-expect-error` below keeps `deno check` green only while its line fails to
// type-check, so the day the path loosens (a free string, an open field bag) this file fails.
const key = { org: "o", project: "p", label: "lead" };

Deno.test("typed updates: a good one builds; the bad ones are compile errors", () => {
  const good = update("prompt_queued", { key, uuid: "u", source: "you", text: "hi" });
  // @ts-expect-error: no such update (a misspelt name)
  update("prompt_queud", { key, uuid: "u", source: "you", text: "hi" });
  // @ts-expect-error: a required field is missing (`text`)
  update("prompt_queued", { key, uuid: "u", source: "you" });
  // @ts-expect-error: a field of the wrong type (`cancelled` is a boolean)
  update("prompt_cancel_resolved", { key, uuid: "u", cancelled: "yes" });
  // @ts-expect-error: a source the wire does not know
  update("prompt_queued", { key, uuid: "u", source: "pigeon", text: "hi" });
  // @ts-expect-error: a field the variant does not carry
  update("releasing", { key, why: "no" });
  // @ts-expect-error: a unit variant carries no fields
  update("dictate_availability", {});
  const literal: SessionUpdate = { name: "notice", fields: { key, severity: "info", text: "t" } };
  // @ts-expect-error: an object literal is checked against its variant too
  const wrong: SessionUpdate = { name: "notice", fields: { key, severity: "loud", text: "t" } };
  // Narrowing by name reaches the variant's own fields.
  const narrowed = (u: SessionUpdate) => u.name === "prompt_queued" ? u.fields.text : null;
  assertEquals([narrowed(good), narrowed(literal), wrong.name], ["hi", null, "notice"]);
});
