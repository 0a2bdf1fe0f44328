import type { z } from "zod";

/**
 * A client message's unknown FIELDS are ignored, as the original's serde decode ignores them: an
 * older client sends fields a newer schema dropped (`browser: false` on a subscribe) and must not
 * be refused for it. Unknown kinds, unknown variants and wrong types stay refused, because those
 * are still parse failures once the unknown keys are set aside, as the original's serde does.
 */
export type Lenient<T> =
  | { success: true; data: T; ignored: string[] }
  | { success: false; error: z.ZodError; ignored: string[] };

/** Parses `raw`, dropping every key the schema does not know; `ignored` names each dotted path. */
export function parseIgnoringUnknownFields<T>(schema: z.ZodType<T>, raw: unknown): Lenient<T> {
  const ignored: string[] = [];
  let value = raw;
  // Each pass drops the keys one layer reports; a nested object is only checked once its parent
  // parses, so a bounded number of passes covers the depth the inbound bound allows.
  for (let pass = 0; pass < 8; pass++) {
    // reportInput: a refusal says what the wrong value was (its kind; issues.ts never echoes it).
    const parsed = schema.safeParse(value, { reportInput: true });
    if (parsed.success) return { success: true, data: parsed.data, ignored };
    const unknown = parsed.error.issues.filter((i) => i.code === "unrecognized_keys");
    if (unknown.length === 0) return { success: false, error: parsed.error, ignored };
    value = structuredClone(value);
    for (const issue of unknown) {
      const holder = at(value, issue.path);
      if (!holder) return { success: false, error: parsed.error, ignored };
      for (const k of (issue as { keys: string[] }).keys) {
        delete holder[k];
        ignored.push([...issue.path, k].join("."));
      }
    }
  }
  const last = schema.safeParse(value, { reportInput: true });
  return last.success
    ? { success: true, data: last.data, ignored }
    : { success: false, error: last.error, ignored };
}

function at(value: unknown, path: PropertyKey[]): Record<string, unknown> | null {
  let cur = value;
  for (const step of path) {
    if (cur === null || typeof cur !== "object") return null;
    cur = (cur as Record<PropertyKey, unknown>)[step];
  }
  return cur !== null && typeof cur === "object" && !Array.isArray(cur)
    ? cur as Record<string, unknown>
    : null;
}
