/**
 * A bench's `--name value` flags, read with node:util's parseArgs. Flags a bench does not name are
 * passed over: `task bench` hands every bench it runs the same flags. `--name=value` works too.
 */
import { parseArgs } from "node:util";

/** `--name` (or `name`) read as one option of `type`; undefined when absent. */
function read(name: string, type: "string" | "boolean"): string | boolean | undefined {
  const key = name.replace(/^--/, "");
  const { values } = parseArgs({
    args: Deno.args,
    options: { [key]: { type } },
    strict: false,
    allowPositionals: true,
  });
  return values[key];
}

/** The value of `--name` (or `name`), else `fallback`. */
export function stringFlag(name: string, fallback: string): string {
  const value = read(name, "string");
  return typeof value === "string" ? value : fallback;
}

/** The number `--name` (or `name`) gives, else `fallback`; refuses a value that is not a number. */
export function numberFlag(name: string, fallback: number): number {
  const raw = stringFlag(name, "");
  if (raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) {
    throw new Error(`--${name.replace(/^--/, "")} wants a number, not ${raw}`);
  }
  return n;
}

/** Whether `--name` (or `name`) was given. */
export function booleanFlag(name: string): boolean {
  return read(name, "boolean") === true;
}
