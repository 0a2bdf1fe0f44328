/**
 * Test helpers for the config writer's tests: fixtures, a line diff, and a
 * plain-JSON view of parsed TOML for deep comparison.
 */
import { parse } from "smol-toml";

/** The text of `fixtures/forge_toml/<name>`. */
export function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(`../fixtures/forge_toml/${name}`, import.meta.url));
}

/**
 * The lines `after` dropped from `before` and the lines it added, by a longest common
 * subsequence over whole lines (the `\r` of a CRLF line is part of the line). Every line in
 * neither list is byte-identical and in the same order in both texts.
 */
export function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split("\n");
  const b = after.split("\n");
  const lcs: number[][] = Array.from(
    { length: a.length + 1 },
    () => new Array(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) {
      added.push(b[j++]);
    } else {
      removed.push(a[i++]);
    }
  }
  return { removed, added };
}

/** A JSON value: what parsed TOML looks like once prototypes and bigints are gone. */
export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

/**
 * Parsed TOML as plain JSON values (smol-toml's tables have no prototype; deep equality
 * cares). Copied by hand, not by a JSON round trip: Deno 2.9.6's JSON.parse can read the key
 * `"\""` as a backslash once a key `"\\"` has been parsed from a two-byte text.
 */
export function plain(text: string): { [key: string]: Plain } {
  return copy(parse(text)) as { [key: string]: Plain };
}

function copy(v: unknown): Plain {
  if (Array.isArray(v)) return v.map(copy);
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && v !== null) {
    const out: { [key: string]: Plain } = {};
    for (const [k, item] of Object.entries(v)) out[k] = copy(item);
    return out;
  }
  return v as Plain;
}
