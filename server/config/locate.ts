/**
 * Finds where a key path sits in TOML source, for load errors that name line and column. The
 * parser (smol-toml) reports positions for syntax errors only, so validation errors are placed by
 * this small line scanner: it tracks `[table]` and `[[array]]` headers (counting array entries) and
 * `key =` lines, skipping multi-line strings. It is a locator, not a parser: a path it cannot
 * place answers the nearest enclosing header.
 */
export interface Position {
  line: number;
  column: number;
}

type PathPart = string | number;

export function locate(text: string, path: PathPart[]): Position {
  const lines = text.split("\n");
  const counts = new Map<string, number>();
  let table: PathPart[] = [];
  let best: Position = { line: 1, column: 1 };
  let inMulti: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (inMulti) {
      if (raw.includes(inMulti)) inMulti = null;
      continue;
    }
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[\[\s*([^\]]+?)\s*\]\]|^\[\s*([^\]]+?)\s*\]/.exec(line);
    if (header) {
      const names = splitKey(header[1] ?? header[2]);
      table = header[1] ? arrayPath(names, counts) : withIndexes(names, counts);
      if (prefixOf(table, path)) best = { line: i + 1, column: raw.indexOf("[") + 1 };
      continue;
    }
    const eq = findEquals(line);
    if (eq < 0) continue;
    const full = [...table, ...splitKey(line.slice(0, eq))];
    if (prefixOf(full, path)) {
      best = { line: i + 1, column: raw.length - raw.trimStart().length + 1 };
    }
    const rest = line.slice(eq + 1).trim();
    for (const q of ['"""', "'''"]) {
      if (rest.startsWith(q) && rest.indexOf(q, 3) < 0) inMulti = q;
    }
  }
  return best;
}

/** `[[orgs.projects]]`: the last name is an array whose entry count grows with each header. */
function arrayPath(names: string[], counts: Map<string, number>): PathPart[] {
  const parent = withIndexes(names.slice(0, -1), counts);
  const id = JSON.stringify([...parent, names[names.length - 1]]);
  const index = (counts.get(id) ?? -1) + 1;
  counts.set(id, index);
  return [...parent, names[names.length - 1], index];
}

/** Inside `[orgs.x]` an array name refers to its latest entry. */
function withIndexes(names: string[], counts: Map<string, number>): PathPart[] {
  const out: PathPart[] = [];
  for (const name of names) {
    out.push(name);
    const index = counts.get(JSON.stringify(out));
    if (index !== undefined) out.push(index);
  }
  return out;
}

function prefixOf(candidate: PathPart[], path: PathPart[]): boolean {
  if (candidate.length > path.length) return false;
  return candidate.every((part, i) => part === path[i]);
}

function findEquals(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "=") return i;
  }
  return -1;
}

function splitKey(key: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(key)) !== null && m[0] !== "") parts.push(m[1] ?? m[2] ?? m[3]);
  return parts.length ? parts : [key.trim()];
}
