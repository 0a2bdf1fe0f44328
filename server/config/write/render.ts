/**
 * Renders edit values as TOML text for the writer to splice in: strings as basic strings,
 * numbers as integers or floats, lists as one-line arrays, tables as inline tables. A value
 * TOML cannot hold (null inside a list, an unpaired surrogate, a function) is refused by name.
 */

/** A value an edit may carry: the shapes a settings row edits, nested. */
export type TomlValue =
  | string
  | number
  | bigint
  | boolean
  | TomlValue[]
  | { [key: string]: TomlValue };

/**
 * True for a plain object (a TOML table), false for lists, dates and scalars. smol-toml builds
 * its tables without a prototype, the wire's JSON with Object's.
 */
export function isTable(v: unknown): v is { [key: string]: TomlValue } {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

/** A key part as written: bare when TOML allows it, else a basic string. */
export function renderKeyPart(part: string): string {
  return /^[A-Za-z0-9_-]+$/.test(part) ? part : renderString(part, part);
}

/** A dotted key as written. */
export function renderKey(parts: string[]): string {
  return parts.map(renderKeyPart).join(".");
}

function renderString(s: string, where: string): string {
  if (!s.isWellFormed()) throw new Error(`${where}: the string holds an unpaired surrogate`);
  // JSON's escapes are all valid TOML basic-string escapes; TOML also requires DEL escaped.
  return JSON.stringify(s).replaceAll("\x7f", "\\u007F");
}

/**
 * Renders a value inline. `where` names the key for error messages. Throws when the value
 * has no TOML form.
 */
export function renderValue(v: unknown, where: string): string {
  switch (typeof v) {
    case "string":
      return renderString(v, where);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
    case "number":
      if (Number.isNaN(v)) return "nan";
      if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
      if (Number.isInteger(v)) {
        // Beyond 2^53 a JS number is not an exact integer; TOML would read back another one.
        if (!Number.isSafeInteger(v)) return renderFloat(v);
        return Object.is(v, -0) ? "0" : String(v);
      }
      return renderFloat(v);
  }
  if (Array.isArray(v)) {
    return "[" + v.map((item, i) => renderValue(item, `${where}[${i}]`)).join(", ") + "]";
  }
  if (isTable(v)) {
    const parts = Object.entries(v).map(([k, item]) =>
      `${renderKeyPart(k)} = ${renderValue(item, `${where}.${k}`)}`
    );
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }
  throw new Error(`${where}: ${v === null ? "null" : typeof v} has no TOML form here`);
}

function renderFloat(v: number): string {
  const s = String(v);
  // TOML floats need a fraction or an exponent: 1e+21 is fine, 3 would read as an integer.
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

/** Deep equality of two values as TOML holds them (key order of tables ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((x, i) => sameValue(x, b[i]));
  }
  if (isTable(a) || isTable(b)) {
    if (!isTable(a) || !isTable(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameValue(a[k], b[k]));
  }
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b) || a === b;
  if (typeof a === "bigint" || typeof b === "bigint") {
    // A large integer may come back from the parser as a bigint and from a page as a number.
    const numeric = (x: unknown) => typeof x === "bigint" || typeof x === "number";
    return numeric(a) && numeric(b) && String(a) === String(b);
  }
  return a === b;
}

/**
 * Checks that a value from the wire is one TOML can hold (no null inside it, no dates,
 * no class instances) and returns it typed. Throws naming `where` otherwise.
 */
export function asTomlValue(v: unknown, where: string): TomlValue {
  if (typeof v === "string" || typeof v === "number" || typeof v === "bigint") return v;
  if (typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map((item, i) => asTomlValue(item, `${where}[${i}]`));
  if (isTable(v)) {
    const out: { [key: string]: TomlValue } = {};
    for (const [k, item] of Object.entries(v)) out[k] = asTomlValue(item, `${where}.${k}`);
    return out;
  }
  throw new Error(`${where}: ${v === null ? "null" : typeof v} has no TOML form here`);
}
