/**
 * A snapshot's recorded shape (fixtures/golden/): every field path with the JSON type it holds,
 * so a golden test fails on a field that appears, disappears, is renamed or changes type. An
 * array is recorded by its first element; a path listed as opaque is recorded as `<json>` (a raw
 * CLI frame, or a part another module's own schema and tests pin). `FORGE_GOLDEN_RECORD=1`
 * writes the shape instead of checking it (a deliberate wire change re-records and is reviewed
 * as a fixture diff).
 */
export type Shape = string | Shape[] | { [field: string]: Shape };

export function shapeOf(value: unknown, opaque: readonly string[], path = ""): Shape {
  if (opaque.includes(path)) return "<json>";
  if (value === null) return "null";
  if (Array.isArray(value)) {
    return value.length === 0 ? [] : [shapeOf(value[0], opaque, `${path}[]`)];
  }
  if (typeof value === "object") {
    const out: Record<string, Shape> = {};
    for (const k of Object.keys(value as object).sort()) {
      out[k] = shapeOf((value as Record<string, unknown>)[k], opaque, path ? `${path}.${k}` : k);
    }
    return out;
  }
  return typeof value;
}

/** Every path where `actual` differs from `expected`, in words. */
export function shapeDiff(expected: Shape, actual: Shape, path = "(root)"): string[] {
  if (typeof expected === "string" || typeof actual === "string") {
    return JSON.stringify(expected) === JSON.stringify(actual)
      ? []
      : [`${path}: recorded ${JSON.stringify(expected)}, now ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) {
      return [`${path}: recorded ${JSON.stringify(expected)}, now ${JSON.stringify(actual)}`];
    }
    if (expected.length !== actual.length) {
      return [
        `${path}: recorded ${expected.length ? "a list of rows" : "an empty list"}, now ${
          actual.length ? "a list of rows" : "an empty list"
        }`,
      ];
    }
    return expected.length ? shapeDiff(expected[0], actual[0], `${path}[]`) : [];
  }
  const out: string[] = [];
  for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const at = path === "(root)" ? k : `${path}.${k}`;
    if (!(k in actual)) out.push(`${at}: recorded, now missing`);
    else if (!(k in expected)) out.push(`${at}: new, not recorded`);
    else out.push(...shapeDiff(expected[k], actual[k], at));
  }
  return out;
}

const GOLDEN = new URL("../fixtures/golden/", import.meta.url).pathname;

/** Checks `value`'s shape against fixtures/golden/<name>.json (or records it). */
export async function checkGolden(
  name: string,
  value: unknown,
  opaque: readonly string[],
): Promise<string[]> {
  const shape = shapeOf(value, opaque);
  const file = `${GOLDEN}${name}.json`;
  if (Deno.env.get("FORGE_GOLDEN_RECORD") === "1") {
    await Deno.writeTextFile(file, JSON.stringify(shape, null, 2) + "\n");
    return [];
  }
  const recorded = JSON.parse(await Deno.readTextFile(file)) as Shape;
  return shapeDiff(recorded, shape).map((d) => `${name}: ${d}`);
}
