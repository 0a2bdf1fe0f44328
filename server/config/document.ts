import type { KeyValue, SettingsArea, SettingsDocument, SettingsKey } from "../../protocol/mod.ts";
import type { LoadedConfig } from "./load.ts";
import type { AreaSpec, KeySpec } from "./spec.ts";
import { isPlainObject } from "./validate.ts";

/** The name an entry of a repeated table is known by in a concrete path. */
const IDENTITY: Record<string, string> = {
  accounts: "display_name",
  orgs: "name",
  projects: "name",
  slack: "workspace",
};

/**
 * Builds the effective-config document once per load; every connection shares it.
 * spec: The effective config. A repeated table's keys appear once per entry, with the instance
 * names in `path` and `group`, because a name can contain dots and a reader cannot cut one out.
 */
export function buildDocument(
  loaded: LoadedConfig,
  areas: AreaSpec[],
  version: string,
): SettingsDocument {
  const out: SettingsArea[] = areas.map((area) => ({
    id: area.id,
    name: area.name,
    note: area.note,
    keys: area.keys.flatMap((spec) => rows(loaded.tree, spec)),
  }));
  return {
    version,
    source: loaded.path,
    fingerprint: loaded.fingerprint,
    totals: { keys: out.reduce((n, a) => n + a.keys.length, 0), areas: out.length },
    areas: out,
  };
}

function rows(tree: Record<string, unknown>, spec: KeySpec): SettingsKey[] {
  const parts = spec.pattern.split(".");
  const found: { names: string[]; value: unknown }[] = [];
  walk(tree, parts, [], found);
  return found.map(({ names, value }) => {
    const leaf = parts[parts.length - 1];
    return {
      path: concretePath(parts, names),
      leaf,
      group: names,
      pattern: spec.pattern,
      kind: spec.kind,
      // The loader held every value to its key's kind (validate.ts checkKind) before a document
      // is built from the tree, so a value found here is in KeyValue's shape.
      value: value === undefined ? spec.default : (value as KeyValue),
      class: spec.class,
      edit: spec.edit,
    };
  });
}

/** Collects every instance of a pattern; a non-repeated key yields exactly one row. */
function walk(
  node: unknown,
  parts: string[],
  names: string[],
  out: { names: string[]; value: unknown }[],
) {
  const [head, ...rest] = parts;
  const obj = isPlainObject(node) ? node : {};
  if (rest.length === 0) {
    out.push({ names, value: obj[head] });
    return;
  }
  if (head.endsWith("[]")) {
    const name = head.slice(0, -2);
    const entries = Array.isArray(obj[name]) ? obj[name] as unknown[] : [];
    for (const entry of entries) {
      if (!isPlainObject(entry)) continue;
      const id = entry[IDENTITY[name] ?? "name"];
      walk(entry, rest, [...names, typeof id === "string" ? id : "?"], out);
    }
    return;
  }
  walk(obj[head], rest, names, out);
}

function concretePath(parts: string[], names: string[]): string {
  let i = 0;
  return parts.map((p) => (p.endsWith("[]") ? `${p.slice(0, -2)}.${names[i++]}` : p)).join(".");
}
