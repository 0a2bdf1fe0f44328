import type { Edit } from "./write/edits.ts";
import type { AreaSpec, KeySpec } from "./spec.ts";
import { checkKind } from "./validate.ts";

/** Why an edit's value is off its key's kind, and the key it names. */
export interface OffKind {
  message: string;
  key_path: string;
}

/**
 * The first `set` in a batch whose value is not in its key's own kind (the catalogue's), in
 * forge's words naming the key and the kind it takes; null when every value fits. The wire reads
 * a value as any kind's shape (protocol/client.ts KeyValue) since it cannot tell one key from
 * another; this is where `server.port` refuses a string. A `null` clears the key and fits every
 * kind; a pattern the catalogue lacks, and a key's own rule (a port's range), are the loader's
 * to name, in its words with the line. spec: Editing the config - "value
 * is its new value in the edit.kind's shape".
 */
export function offKind(edits: readonly Edit[], areas: readonly AreaSpec[]): OffKind | null {
  const byPattern = new Map<string, KeySpec>(
    areas.flatMap((a) => a.keys.map((k) => [k.pattern, k] as const)),
  );
  for (const edit of edits) {
    if (edit.op !== "set" || edit.value === null || edit.value === undefined) continue;
    const spec = byPattern.get(edit.pattern);
    if (!spec) continue;
    const why = checkKind(spec, edit.value);
    if (why === null) continue;
    return {
      message: `settings edit set ${edit.key_path}: a ${kindWords(spec)} key ${why}`,
      key_path: edit.key_path,
    };
  }
  return null;
}

function kindWords(spec: KeySpec): string {
  return spec.kind === "list" || spec.kind === "set" || spec.kind === "table"
    ? `${spec.kind}-of-${spec.item ?? "string"}`
    : spec.kind;
}
