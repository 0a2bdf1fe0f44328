/**
 * docs/configuration.md's key tables, rendered from the catalogue (the core's areas and every
 * subsystem manifest's), so the page cannot drift from what the loader accepts. The prose around
 * them is the page's own; `tools/deno.sh task docs` rewrites only the part between the markers.
 */
import type { AreaSpec, KeySpec } from "../server/config/spec.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { catalogueAreas } from "../server/registry.ts";
import { SUBSYSTEMS } from "../subsystems/mod.ts";

/** Every area the loader reads, in the order the settings document lists them. */
export function areas(): AreaSpec[] {
  return catalogueAreas(CORE_AREAS, SUBSYSTEMS);
}

/** A key's kind as a reader writes it: `bool`, `list of strings`, or the values an enum allows. */
export function kindCell(k: KeySpec): string {
  if (k.edit.kind === "enum" && "allowed" in k.edit && Array.isArray(k.edit.allowed)) {
    return k.edit.allowed.map((v) => `\`${v}\``).join(" / ");
  }
  if (k.kind === "list") return `list of ${k.item ?? "string"}s`;
  if (k.kind === "table") return `table of ${k.item ?? "string"}s`;
  return k.kind;
}

/**
 * A number key's range, read from its own rule: the rule names the bounds in the sentence it
 * refuses a value far outside them with ("must be a whole number from 1 to 65535").
 */
export function rangeOf(k: KeySpec): string | null {
  if (k.kind !== "number" || !k.check) return null;
  const said = k.check(-1e15) ?? k.check(1e15);
  const m = said?.match(/from (-?\d+) to (-?\d+)/);
  return m ? `${m[1]}..${m[2]}` : null;
}

/** The default cell: `required`, `unset` (the code's own fallback, in the note) or the value. */
export function defaultCell(k: KeySpec): string {
  if (k.edit.required) return "required";
  if (k.default === null) return "unset";
  return `\`${JSON.stringify(k.default)}\``;
}

/** One table per area: key, kind, default, class and what it is. */
export function renderKeyTables(list: AreaSpec[] = areas()): string {
  const out: string[] = [];
  for (const area of list) {
    const note = area.note.charAt(0).toUpperCase() + area.note.slice(1);
    out.push(`### \`${area.name}\``, "", `${note}.`, "");
    out.push("| key | kind | default | class | what it is |", "|---|---|---|---|---|");
    for (const k of area.keys) {
      const range = rangeOf(k);
      const kind = range ? `${kindCell(k)} (${range})` : kindCell(k);
      const note = k.note.replaceAll("|", "\\|");
      out.push(`| \`${k.pattern}\` | ${kind} | ${defaultCell(k)} | ${k.class} | ${note} |`);
    }
    out.push("");
  }
  const keys = list.reduce((n, a) => n + a.keys.length, 0);
  out.push(`${keys} keys in ${list.length} areas.`);
  return out.join("\n");
}
