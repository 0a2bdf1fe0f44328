/**
 * A bench's `--name value` flags, read with node:util's parseArgs. Flags a bench does not name are
 * passed over: `task bench` hands every bench it runs the same flags. `--name=value` works too.
 */
import { parseArgs } from "node:util";

/** The value of `--name` (or `name`), else `fallback`. */
export function stringFlag(name: string, fallback: string): string {
  const key = name.replace(/^--/, "");
  const { values } = parseArgs({
    args: Deno.args,
    options: { [key]: { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  const value = values[key];
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
  const key = name.replace(/^--/, "");
  const { values } = parseArgs({
    args: Deno.args,
    options: { [key]: { type: "boolean" } },
    strict: false,
    allowPositionals: true,
  });
  return values[key] === true;
}
