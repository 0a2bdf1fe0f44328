// No silent errors: every catch in product code that drops its error (uses it nowhere and does
// not throw) says why at the site, and is listed in tests/catches_allowed.ts with that reason.
// A new one fails here until it logs its cause or is argued; a listed one that went away fails
// too, so the list stays the truth.
import { assertEquals } from "./assert.ts";
import { dropsIn } from "./catches.ts";
import { ALLOWED } from "./catches_allowed.ts";

/** Product code: what ships. Tests, test support and fixtures are not. */
export const PRODUCT = [
  "main.ts",
  "server",
  "subsystems",
  "protocol",
  "tools/launch.ts",
  "tools/permissions.ts",
];

Deno.test("every catch that drops its error says why, and the list of them is exact", async () => {
  const drops = await dropsIn(PRODUCT);
  const silent = drops.filter((d) => !d.commented).map((d) => `${d.key}: ${d.text}`);
  assertEquals(silent, [], "catches that drop an error without a word of why");
  const unlisted = drops.filter((d) => !(d.key in ALLOWED)).map((d) => `${d.key}: ${d.why}`);
  assertEquals(unlisted, [], "catches not in tests/catches_allowed.ts");
  const found = new Set(drops.map((d) => d.key));
  const stale = Object.keys(ALLOWED).filter((k) => !found.has(k));
  assertEquals(stale, [], "listed catches no longer in the code");
});
