import { assert, assertEquals } from "../tests/assert.ts";
import { ClientMessage } from "./client.ts";
import { decodeCommandLenient } from "./command_wire.ts";
import { parseIgnoringUnknownFields } from "./lenient.ts";

// Unknown fields are ignored (serde's default), unknown kinds and wrong types refused.

Deno.test("a subscribe with a field the schema dropped (browser: false) parses, naming it", () => {
  const r = parseIgnoringUnknownFields(ClientMessage, {
    kind: "subscribe",
    what: "home",
    browser: false,
  });
  assert(r.success);
  assertEquals(r.data, { kind: "subscribe", what: "home" });
  assertEquals(r.ignored, ["browser"]);
});

Deno.test("nested unknown fields are dropped at their own path", () => {
  const r = parseIgnoringUnknownFields(ClientMessage, {
    kind: "showing",
    seat: { org: "o", project: "p", label: "lead", colour: "red" },
    extra: 1,
  });
  assert(r.success);
  assertEquals(r.ignored.sort(), ["extra", "seat.colour"]);
});

Deno.test("an unknown kind and a wrong type stay refused", () => {
  assert(!parseIgnoringUnknownFields(ClientMessage, { kind: "nope" }).success);
  const wrong = parseIgnoringUnknownFields(ClientMessage, {
    kind: "subscribe",
    what: "home",
    review: "yes",
    browser: false,
  });
  assert(!wrong.success);
  assertEquals(wrong.error.issues.map((i) => i.path.join(".")), ["review"]);
});

Deno.test("a command's unknown field is ignored; an unknown variant is refused", () => {
  const ok = decodeCommandLenient({
    cancel: { key: { org: "o", project: "p", label: "lead" }, force: true },
  });
  assertEquals(ok.command.name, "cancel");
  assertEquals(ok.ignored, ["force"]);
  let threw = "";
  try {
    decodeCommandLenient({ nope: {} });
  } catch (err) {
    threw = (err as Error).message;
  }
  assertEquals(threw, "unknown command `nope`");
});
