/**
 * Small readers the scan shares. Every one answers rather than throws: a missing or broken file
 * is a fact the inventory reports (a load_error), never a crash of the scan.
 */
import { isExecutableSync } from "../../server/path_kind.ts";

/** A JSON object's fields, loosely: the CLI's files are read field by field, never trusted. */
export type Loose = { [key: string]: unknown };

export type JsonRead =
  | { ok: true; value: unknown }
  | { ok: false; missing: boolean; why: string };

/** Reads and parses a JSON file; `why` names the file and what was wrong, in forge's words. */
export async function readJson(path: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      return { ok: false, missing: true, why: `${path} is missing` };
    }
    if (err instanceof Deno.errors.PermissionDenied) {
      return { ok: false, missing: false, why: `forge may not read ${path}` };
    }
    return { ok: false, missing: false, why: `${path} could not be read (${(err as Error).name})` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // The parser's words stay out: not valid JSON is the reason.
    return { ok: false, missing: false, why: `${path} is not valid JSON` };
  }
}

/** The value as a plain object, or an empty one. */
export function obj(value: unknown): Loose {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Loose : {};
}

/** The value as a string, or null. */
export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** A directory's entries, or none when it is absent or unreadable. */
export async function entries(path: string): Promise<Deno.DirEntry[]> {
  const out: Deno.DirEntry[] = [];
  try {
    for await (const e of Deno.readDir(path)) out.push(e);
  } catch {
    // absent or unreadable: no entries
  }
  return out;
}

/**
 * Whether a command resolves on this machine: a path is checked as given, a bare name against
 * every PATH directory. spec: extensions > lsp ("a fact about the machine the socket is on").
 */
export function resolvesOnPath(command: string, path: string): boolean {
  if (command.includes("/")) return isExecutableSync(command);
  return path.split(":").some((dir) => dir.length > 0 && isExecutableSync(`${dir}/${command}`));
}

/**
 * Hides the credentials a URL may carry (`https://user:token@host/...` -> `https://***@host/...`):
 * a marketplace source can embed a token, and neither the log nor a frame may show one.
 */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, "$1***@");
}
