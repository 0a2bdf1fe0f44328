// The writer's map of a file: concrete paths by TOML's array-of-tables rules, keys decoded.
import {
  deepStrictEqual as deepEqual,
  notStrictEqual as notEqual,
  strictEqual as equal,
} from "node:assert/strict";
import { applyEdits } from "./edits.ts";
import { type Path, pathKey, scan } from "./scan.ts";
import { fixture, plain } from "../../../tests/config_write_support.ts";

Deno.test("scan: headers get concrete paths; a nested [[array]] joins the LAST parent entry", () => {
  const s = scan(fixture("full.toml"));
  const headers = s.blocks.filter((b) => b.kind !== "root").map((b) => b.path);
  deepEqual(headers.slice(3, 13), [
    ["accounts", 0],
    ["accounts", 1],
    ["accounts", 2],
    ["orgs", 0],
    ["orgs", 0, "projects", 0],
    ["orgs", 0, "projects", 1],
    ["orgs", 0, "projects", 1, "env"],
    ["orgs", 1],
    ["orgs", 1, "projects", 0],
    ["slack", 0],
  ]);
  // Lines inside multi-line strings that look like headers or comments are not.
  equal(s.items.filter((i) => i.kind === "header").length, 16);
  equal(s.items.some((i) => s.text.slice(i.start, i.end).startsWith("[not.a.table]")), false);
});

Deno.test("scan: every key it places is where the parser has a value", () => {
  for (const name of ["full.toml", "compact.toml"]) {
    const text = fixture(name);
    const data = plain(text);
    for (const loc of scan(text).keys.values()) {
      const path: Path = loc.kind === "row" ? loc.row.path : loc.path;
      let node: unknown = data;
      for (const p of path) node = (node as Record<string | number, unknown>)[p];
      notEqual(node, undefined, `${name}: ${path.join(".")}`);
    }
  }
});

Deno.test("scan: quoted, dotted and escaped keys decode to their parts", () => {
  const s = scan('a."b.c".\'d\' = 1\n"\\u00e9\\"\\\\" = 2\nx = { "y.z" = { w = 3 } }\n');
  deepEqual([...s.keys.values()].map((l) => l.kind === "row" ? l.row.path : l.path), [
    ["a", "b.c", "d"],
    ['é"\\'],
    ["x"],
    ["x", "y.z"],
    ["x", "y.z", "w"],
  ]);
});

Deno.test("pathKey: distinct paths never share a key, whatever the key text holds", () => {
  const paths: Path[] = [["a.b"], ["a", "b"], ["a", 0], ["a", "0"], ['"'], ["\\"], ["#1:x"], [
    "",
    "",
  ]];
  equal(new Set(paths.map(pathKey)).size, paths.length);
});

Deno.test('keys `\\` and `"` in a two-byte file stay apart', () => {
  // random_test met this pair: Deno 2.9.6's JSON.parse, once it has read the key "\\" from a
  // two-byte text, reads a later key "\"" as a backslash. tests/config_write_support.ts's plain()
  // and pathKey() avoid JSON.parse; this checks the writer itself on the pair.
  const text = 'env = { K = "\u{1F600}" }\n';
  const r = applyEdits(text, [
    { area: "env", key_path: "env.\\", pattern: "env.*", op: "set", value: "back" },
    { area: "env", key_path: 'env."', pattern: "env.*", op: "set", value: "quote" },
  ]);
  deepEqual(r, { ok: true, text: 'env = { K = "\u{1F600}", "\\\\" = "back", "\\"" = "quote" }\n' });
  deepEqual(Object.keys(plain(r.ok ? r.text : "").env ?? {}), ["K", "\\", '"']);
});
