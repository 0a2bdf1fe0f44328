import type { KeyClass, KeyKind, KeyValue, SettingsKey, Wire } from "../../protocol/mod.ts";
import { headerValueFault } from "./header_value.ts";

/**
 * One key of the catalogue. `pattern` names where it lives: `server.port`, `accounts[].token`,
 * `orgs[].projects[].path`. The catalogue is the one source for load-time validation, the settings
 * document and the reload summary.
 */
export interface KeySpec {
  pattern: string;
  kind: KeyKind;
  class: KeyClass;
  edit: SettingsKey["edit"];
  /** The built-in value; `null` means unset (the document shows null, the code applies its own). */
  default: KeyValue | null;
  note: string;
  /** For `list`: the items' kind. For `table`: the values' kind. */
  item?: "string" | "number" | "list";
  /** A rule beyond the kind: returns the sentence naming what is wrong, or null. */
  check?: (value: Wire) => string | null;
  /** A credential: a refusal names the key and the fault, never the value (validate.ts). */
  secret?: boolean;
}

/** One area: a top-level table (or array of tables) and its keys. */
export interface AreaSpec {
  id: string;
  name: string;
  note: string;
  keys: KeySpec[];
}

const editKind = (kind: KeyKind): SettingsKey["edit"]["kind"] =>
  kind === "bool" ? "bool" : kind === "number" ? "number" : kind === "list" ? "list" : "string";

/** The fields every key shares; `more` adds an item kind, a rule or another edit shape. */
function spec(
  pattern: string,
  kind: KeyKind,
  klass: KeyClass,
  def: KeyValue | null,
  note: string,
  more: Partial<KeySpec> = {},
): KeySpec {
  return {
    pattern,
    kind,
    class: klass,
    default: def,
    note,
    edit: { kind: editKind(kind), required: false },
    ...more,
  };
}

/** Shorthand constructors keep the catalogue readable: one line per key. */
export const key = {
  string(
    pattern: string,
    def: string | null,
    klass: KeyClass,
    note: string,
    more: Partial<KeySpec> = {},
  ): KeySpec {
    return spec(pattern, "string", klass, def, note, more);
  },
  enum(
    pattern: string,
    allowed: string[],
    def: string | null,
    klass: KeyClass,
    note: string,
  ): KeySpec {
    return spec(pattern, "string", klass, def, note, {
      edit: { kind: "enum", allowed, required: false },
      check: (v) =>
        typeof v === "string" && !allowed.includes(v)
          ? `must be one of ${allowed.join(", ")}`
          : null,
    });
  },
  number(
    pattern: string,
    def: number | null,
    klass: KeyClass,
    note: string,
    range?: [number, number],
  ): KeySpec {
    return spec(pattern, "number", klass, def, note, {
      check: range
        ? (v) =>
          typeof v === "number" && (v < range[0] || v > range[1] || !Number.isInteger(v))
            ? `must be a whole number from ${range[0]} to ${range[1]}`
            : null
        : undefined,
    });
  },
  /**
   * A credential forge sends as an HTTP header value (an account's token, a connector's or a
   * push channel's): one a header cannot carry is refused at load, and so in a save
   * (header_value.ts), and no refusal echoes it.
   */
  secret(pattern: string, klass: KeyClass, note: string): KeySpec {
    return spec(pattern, "string", klass, null, note, {
      secret: true,
      check: (v) => typeof v === "string" ? headerValueFault(v) : null,
    });
  },
  bool(pattern: string, def: boolean | null, klass: KeyClass, note: string): KeySpec {
    return spec(pattern, "bool", klass, def, note);
  },
  list(pattern: string, def: string[] | null, klass: KeyClass, note: string): KeySpec {
    return spec(pattern, "list", klass, def, note, { item: "string" });
  },
  table(
    pattern: string,
    klass: KeyClass,
    note: string,
    item: "string" | "number" | "list" = "string",
  ): KeySpec {
    return spec(pattern, "table", klass, {}, note, { item });
  },
};

/** Marks a key required (it may not be unset); `group` names the repeated entry it belongs to. */
export function required(spec: KeySpec): KeySpec {
  return { ...spec, edit: { ...spec.edit, required: true } };
}

export function grouped(group: string, specs: KeySpec[]): KeySpec[] {
  return specs.map((s) => ({ ...s, edit: { ...s.edit, group } }));
}
