/**
 * Applies a batch of settings edits to forge.toml text, keeping every byte the edits do not
 * touch. spec: Editing the config.
 *
 * - `set` writes the key `key_path` names (located by `pattern`); a `null` value clears it, so
 *   its default applies. A table value is written key by key, a list value item by item.
 * - `remove` with a pattern removes that key; with an empty pattern it removes the entry
 *   `key_path` names (see `locateEntry` for the forms), its lead comments and sub-tables.
 * - `add` appends the entry `key_path` names, `value` holding its fields (the identity field
 *   comes from `key_path`). A `models` entry is an item of the account's `models` list; its
 *   value may carry `slug` (written to `model_slugs.<model>`) and `aliases` (written to
 *   `model_aliases.<model>`), and removing the model drops those two keys with it.
 *
 * Edits apply in order, each to the text the previous one left. `area` only selects the entry
 * kind for `add` and entry removal; keys are located by `pattern` alone.
 */
import { asTomlValue, isTable, renderValue, type TomlValue } from "./render.ts";
import { type EntryRef, locateEntry, resolveKeyPath } from "./locate.ts";
import {
  appendItem,
  type Doc,
  getAt,
  load,
  removeItem,
  removeKey,
  setValue,
  splice,
} from "./ops.ts";
import { appendEntrySplices, appendTableSplices, removeBlocksSplices } from "./splice.ts";
import { pathKey } from "./scan.ts";

/** One edit of a `settings_edit` batch, as the wire carries it. */
export interface Edit {
  area: string;
  key_path: string;
  pattern: string;
  op: "set" | "add" | "remove";
  value?: unknown;
}

/** The edited text, or why the batch cannot apply (naming the edit's key_path). */
export type ApplyResult =
  | { ok: true; text: string }
  | { ok: false; message: string; key_path: string | null };

/**
 * Applies `edits` to `text`. Fails, applying nothing, when the text is not TOML, when an edit
 * names an entry the file lacks, a key path that does not fit its pattern, or a value TOML
 * cannot hold; the message names the edit's key_path and the reason.
 */
export function applyEdits(text: string, edits: readonly Edit[]): ApplyResult {
  let doc: Doc;
  try {
    doc = load(text);
  } catch (e) {
    return { ok: false, message: `forge.toml does not parse: ${reason(e)}`, key_path: null };
  }
  for (const edit of edits) {
    try {
      doc = applyOne(doc, edit);
    } catch (e) {
      // Deeper errors name the key too; say it once.
      const why = reason(e).replace(`${edit.key_path}: `, "");
      const message = `settings edit ${edit.op} ${edit.key_path}: ${why}`;
      return { ok: false, message, key_path: edit.key_path };
    }
  }
  return { ok: true, text: doc.text };
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function applyOne(doc: Doc, edit: Edit): Doc {
  switch (edit.op) {
    case "set": {
      if (!edit.pattern) throw new Error("set needs the key's pattern");
      const path = resolveKeyPath(doc.data, edit.pattern, edit.key_path);
      if (edit.value === null) return removeKey(doc, path);
      if (edit.value === undefined) throw new Error("set needs a value (null clears the key)");
      return setValue(doc, path, asTomlValue(edit.value, edit.key_path), edit.key_path);
    }
    case "remove":
      if (edit.pattern) {
        return removeKey(doc, resolveKeyPath(doc.data, edit.pattern, edit.key_path));
      }
      return removeEntry(doc, locateEntry(doc.data, edit.area, edit.key_path), edit.key_path);
    case "add": {
      const ref = locateEntry(doc.data, edit.area, edit.key_path);
      const fields = asTomlValue(edit.value ?? {}, edit.key_path);
      if (!isTable(fields)) throw new Error("add needs a table of the entry's fields as its value");
      return addEntry(doc, ref, fields, edit.key_path);
    }
    default:
      throw new Error(`op ${String((edit as { op: unknown }).op)} is not set, add or remove`);
  }
}

function addEntry(doc: Doc, ref: EntryRef, fields: Record<string, TomlValue>, where: string): Doc {
  const rows = (entries: [string, TomlValue][]): [string, string][] =>
    entries.map(([k, v]) => [k, renderValue(v, `${where}.${k}`)]);
  if (ref.kind === "table") {
    if (ref.exists) throw new Error(`[${ref.path.join(".")}] is already in the file`);
    return splice(
      doc,
      appendTableSplices(doc.scan, ref.path.map(String), rows(Object.entries(fields))),
    );
  }
  if (ref.kind === "model") return addModel(doc, ref.account, ref.name, fields, where);
  if (ref.index !== null) throw new Error(`an entry named "${ref.name}" already exists`);
  const given = fields[ref.field];
  if (given !== undefined && typeof given !== "string") {
    throw new Error(`its ${ref.field} must be text, the name in the key_path ("${ref.name}")`);
  }
  if (given !== undefined && given !== ref.name) {
    throw new Error(`its ${ref.field} "${given}" differs from the name in the key_path`);
  }
  const list = getAt(doc.data, ref.arrayPath);
  if (list !== undefined && !Array.isArray(list)) throw new Error("that place is not a list");
  const others = Object.entries(fields).filter(([k]) => k !== ref.field);
  const all = rows([[ref.field, ref.name], ...others]);
  return splice(doc, appendEntrySplices(doc.scan, ref.arrayPath, all));
}

function addModel(
  doc: Doc,
  account: number,
  model: string,
  fields: Record<string, TomlValue>,
  where: string,
): Doc {
  const extra = Object.keys(fields).filter((k) => k !== "slug" && k !== "aliases");
  if (extra.length) {
    throw new Error(`a model entry takes slug and aliases, not ${extra.join(", ")}`);
  }
  const base = ["accounts", account];
  const models = getAt(doc.data, [...base, "models"]);
  if (Array.isArray(models) && models.includes(model)) {
    throw new Error(`the account already lists model "${model}"`);
  }
  let d = Array.isArray(models)
    ? appendItem(doc, [...base, "models"], model, where)
    : setValue(doc, [...base, "models"], [model], where);
  if (fields.slug !== undefined) {
    d = setValue(d, [...base, "model_slugs", model], fields.slug, where);
  }
  if (fields.aliases !== undefined) {
    d = setValue(d, [...base, "model_aliases", model], fields.aliases, where);
  }
  return d;
}

function removeEntry(doc: Doc, ref: EntryRef, where: string): Doc {
  if (ref.kind === "table") {
    if (!ref.exists) throw new Error(`[${ref.path.join(".")}] is not in the file`);
    return removeKey(doc, ref.path);
  }
  if (ref.kind === "model") {
    const base = ["accounts", ref.account];
    const models = getAt(doc.data, [...base, "models"]);
    const at = Array.isArray(models) ? models.indexOf(ref.name) : -1;
    if (at < 0) throw new Error(`the account lists no model "${ref.name}"`);
    let d = removeItem(doc, [...base, "models"], at, where);
    for (const table of ["model_slugs", "model_aliases"]) {
      // The loader wants these keyed by listed models only; an emptied table goes entirely.
      const held = getAt(d.data, [...base, table]);
      if (!isTable(held) || !(ref.name in held)) continue;
      const only = Object.keys(held).length === 1;
      d = removeKey(d, only ? [...base, table] : [...base, table, ref.name]);
    }
    return d;
  }
  if (ref.index === null) throw new Error(`no entry named "${ref.name}" is in the file`);
  const path = [...ref.arrayPath, ref.index];
  if (doc.scan.tables.get(pathKey(path))?.kind !== "header") {
    throw new Error("that entry is written inline; edit its line by hand");
  }
  return splice(doc, removeBlocksSplices(doc.scan, path));
}
