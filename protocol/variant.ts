/**
 * One externally tagged variant as serde writes it (spec: How a message is tagged): a unit
 * variant is its bare name, any other `{"<name>": fields}`. Its name and its fields' bag (null
 * for the bare name), or null for any other shape. The caller refuses in its own words.
 */
export function splitVariant(raw: unknown): { name: string; bag: unknown } | null {
  if (typeof raw === "string") return { name: raw, bag: null };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const keys = Object.keys(raw);
  if (keys.length !== 1) return null;
  return { name: keys[0], bag: (raw as Record<string, unknown>)[keys[0]] };
}
