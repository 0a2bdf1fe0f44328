/**
 * Turns an edit's `key_path` into a concrete path, guided by its catalogue `pattern`. The
 * instance names in a key path (an account's display name, a model slug) may contain dots, so
 * a key path is never cut on dots alone: each `[]` segment of the pattern is matched against
 * the names the file actually holds. spec: The effective config ("a name can contain dots").
 *
 * Pattern segments: `name` (a table key), `name[]` (an array of tables, one entry named by its
 * identity field), and a final `*` (any key of a map table, e.g. `env.*`; it takes the rest of
 * the key path, dots included).
 */
import type { Path } from "./scan.ts";

/** The field that names an entry of each array of tables (`name` for any other array). */
export const IDENTITY: Readonly<Record<string, string>> = {
  accounts: "display_name",
  orgs: "name",
  projects: "name",
  slack: "workspace",
};

/** The identity field of entries of the array `name`. */
export function identityField(name: string): string {
  return IDENTITY[name] ?? "name";
}

type Seg = { kind: "key" | "each"; name: string } | { kind: "any" };

function parsePattern(pattern: string): Seg[] {
  return pattern.split(".").map((part, i, all): Seg => {
    if (part === "*" && i === all.length - 1) return { kind: "any" };
    const m = /^([A-Za-z0-9_-]+)(\[\])?$/.exec(part);
    if (!m) throw new Error(`pattern ${pattern} has a segment "${part}" the writer cannot read`);
    return { kind: m[2] ? "each" : "key", name: m[1] };
  });
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The named entry's index in a list of tables, or -1. */
export function findNamed(list: unknown, field: string, name: string): number {
  if (!Array.isArray(list)) return -1;
  return list.findIndex((e) => typeof e === "object" && e !== null && e[field] === name);
}

/**
 * Resolves `keyPath` (concrete, with instance names) against `pattern` in the parsed file.
 * Throws when the key path does not fit the pattern, or names an entry the file lacks.
 */
export function resolveKeyPath(data: unknown, pattern: string, keyPath: string): Path {
  const segs = parsePattern(pattern);
  const shape = segs.map((s) =>
    s.kind === "any" ? "(.+)" : escapeRe(s.name) + (s.kind === "each" ? "\\.(.+?)" : "")
  ).join("\\.");
  if (!new RegExp(`^${shape}$`, "s").test(keyPath)) {
    throw new Error(`it does not fit pattern ${pattern}`);
  }
  const walk = (i: number, rest: string, node: unknown, path: Path): Path | null => {
    const seg = segs[i];
    const last = i === segs.length - 1;
    if (seg.kind === "any") return rest === "" ? null : [...path, rest];
    const obj = typeof node === "object" && node !== null ? node as Record<string, unknown> : {};
    if (seg.kind === "key") {
      if (last) return rest === seg.name ? [...path, seg.name] : null;
      if (!rest.startsWith(seg.name + ".")) return null;
      return walk(i + 1, rest.slice(seg.name.length + 1), obj[seg.name], [...path, seg.name]);
    }
    if (!rest.startsWith(seg.name + ".")) return null;
    const after = rest.slice(seg.name.length + 1);
    const list = obj[seg.name];
    if (!Array.isArray(list)) return null;
    const field = identityField(seg.name);
    for (let idx = 0; idx < list.length; idx++) {
      const id = (list[idx] as Record<string, unknown> | null)?.[field];
      if (typeof id !== "string") continue;
      const here = [...path, seg.name, idx];
      if (last && after === id) return here;
      if (!last && after.startsWith(id + ".")) {
        const found = walk(i + 1, after.slice(id.length + 1), list[idx], here);
        if (found) return found;
      }
    }
    return null;
  };
  const found = walk(0, keyPath, data, []);
  if (!found) {
    const arrays = segs.flatMap((s) => s.kind === "each" ? [`${s.name}[]`] : []).join(", ");
    throw new Error(`it names no entry the file holds (${arrays || pattern})`);
  }
  return found;
}

/** What an `add` or an entry `remove` addresses. `index` is null for an entry not yet there. */
export type EntryRef =
  | { kind: "entry"; arrayPath: Path; field: string; name: string; index: number | null }
  | { kind: "table"; path: Path; exists: boolean }
  | { kind: "model"; account: number; name: string };

function entry(data: unknown, arrayPath: Path, name: string): EntryRef {
  if (name === "") throw new Error("the key_path names no entry");
  const array = String(arrayPath[arrayPath.length - 1]);
  const field = identityField(array);
  const at = findNamed(getList(data, arrayPath), field, name);
  return { kind: "entry", arrayPath, field, name, index: at < 0 ? null : at };
}

function getList(data: unknown, path: Path): unknown {
  let node = data;
  for (const p of path) node = (node as Record<string | number, unknown> | undefined)?.[p];
  return node;
}

/**
 * Locates the entry an `add` or an empty-pattern `remove` names, by area:
 * `accounts` → `accounts.<display_name>`; `projects` → `orgs.<org>.projects.<name>`;
 * `orgs` (beyond the spec's four) → `orgs.<name>`; `connectors` → `slack.<workspace>` (a
 * `[[slack]]` entry) or `gotify` (the `[gotify]` table); `models` →
 * `accounts.<display_name>.models.<model>` (an item of that account's `models` list).
 */
export function locateEntry(
  data: Record<string, unknown>,
  area: string,
  keyPath: string,
): EntryRef {
  const after = (prefix: string) =>
    keyPath.startsWith(prefix) ? keyPath.slice(prefix.length) : null;
  const named = (list: unknown, field: string, rest: string, infix: string) => {
    const items = Array.isArray(list) ? list : [];
    for (let i = 0; i < items.length; i++) {
      const id = items[i]?.[field];
      if (typeof id === "string" && rest.startsWith(id + infix)) {
        return { index: i, rest: rest.slice(id.length + infix.length) };
      }
    }
    return null;
  };
  const acctRest = after("accounts.");
  const orgRest = after("orgs.");
  const slackRest = after("slack.");
  if (area === "accounts" && acctRest !== null) return entry(data, ["accounts"], acctRest);
  if (area === "orgs" && orgRest !== null) return entry(data, ["orgs"], orgRest);
  if (area === "projects" && orgRest !== null) {
    const org = named(data.orgs, "name", orgRest, ".projects.");
    if (!org) throw new Error(`it names no org the file holds`);
    return entry(data, ["orgs", org.index, "projects"], org.rest);
  }
  if (area === "connectors" && keyPath === "gotify") {
    return { kind: "table", path: ["gotify"], exists: data.gotify !== undefined };
  }
  if (area === "connectors" && slackRest !== null) return entry(data, ["slack"], slackRest);
  if (area === "models" && acctRest !== null) {
    const acct = named(data.accounts, "display_name", acctRest, ".models.");
    if (!acct) throw new Error(`it names no account the file holds`);
    if (acct.rest === "") throw new Error("it names no model");
    return { kind: "model", account: acct.index, name: acct.rest };
  }
  throw new Error(
    `area ${area} has no entry of that form to add or remove ` +
      "(accounts.<name>, orgs.<org>.projects.<name>, slack.<workspace>, gotify, " +
      "accounts.<name>.models.<model>)",
  );
}
