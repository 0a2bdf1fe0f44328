import { assertEquals } from "../../tests/assert.ts";
import { CORE_AREAS } from "./core_areas.ts";
import { offKind } from "./edit_kinds.ts";
import type { Edit } from "./write/edits.ts";

const set = (key_path: string, pattern: string, value: unknown): Edit => ({
  area: "x",
  key_path,
  pattern,
  op: "set",
  value,
});

// spec: Editing the config: a `set` value is in its key's kind's shape; null clears any kind.
Deno.test("offKind: each value is held to its own key's kind, named with the key", () => {
  const env = "orgs[].projects[].env";
  const models = "accounts[].models";
  assertEquals(offKind([set("server.port", "server.port", 8791)], CORE_AREAS), null);
  assertEquals(offKind([set("server.port", "server.port", null)], CORE_AREAS), null);
  // A key's rule (a port's range) is the loader's, with its line: not this check's.
  assertEquals(offKind([set("server.port", "server.port", 0)], CORE_AREAS), null);
  assertEquals(offKind([set("orgs.A.projects.p.env", env, { A: "1" })], CORE_AREAS), null);
  assertEquals(
    offKind([set("accounts.R.models", models, ["m"]), set("x", "y", 1)], CORE_AREAS),
    null,
  );
  assertEquals(offKind([set("orgs.A.projects.p.env", env, ["A=1"])], CORE_AREAS), {
    message: "settings edit set orgs.A.projects.p.env: a table-of-string key must be a table " +
      "of string values",
    key_path: "orgs.A.projects.p.env",
  });
  assertEquals(
    offKind([set("accounts.R.models", models, "m")], CORE_AREAS)?.message,
    "settings edit set accounts.R.models: a list-of-string key must be a list of strings",
  );
});
