/**
 * The few assertions the tests use. The Deno std library is unreachable here (no JSR), so these
 * are node:assert's, with the std names the tests read naturally with.
 */
import { deepStrictEqual, match, ok, rejects, strictEqual, throws } from "node:assert/strict";

export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  deepStrictEqual(actual, expected, msg);
}
export function assertStrictEquals<T>(actual: T, expected: T, msg?: string): void {
  strictEqual(actual, expected, msg);
}
export function assert(cond: unknown, msg?: string): asserts cond {
  ok(cond, msg);
}
export function assertMatch(actual: string, re: RegExp, msg?: string): void {
  match(actual, re, msg);
}
/** `fn` throws, with a message `re` matches. */
export function assertThrows(fn: () => unknown, re: RegExp): void {
  throws(fn, (err: Error) => re.test(err.message));
}
export async function assertRejects(fn: () => Promise<unknown>, re?: RegExp): Promise<void> {
  if (re) await rejects(fn, (err: Error) => re.test(err.message));
  else await rejects(fn);
}
