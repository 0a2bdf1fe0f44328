/**
 * Where dictation's files live. Shared by the subsystem and the launcher (tools/permissions.ts),
 * so the read/write fence names exactly the directories the subsystem uses.
 */
import { expandHome } from "../../server/home_path.ts";

/** `[dictate] models_dir` (`~` expanded), else the platform cache `~/.cache/forge-dictate`. */
export function modelsDir(configured: unknown, home: string | null): string | null {
  if (typeof configured === "string" && configured.length > 0) {
    return expandHome(configured, home);
  }
  return home ? `${home}/.cache/forge-dictate` : null;
}

/** The models dir for this process's own environment. */
export function processModelsDir(configured: unknown): string | null {
  return modelsDir(configured, Deno.env.get("HOME") ?? null);
}
