/**
 * Test support for the held-ask registry's tests (server/workspace/seats/held_test.ts and
 * held_resolve_test.ts): two seats, one card per kind as its parker builds it, and a registry
 * whose updates and warnings are kept.
 */
import type { SessionUpdate, Slot } from "../protocol/mod.ts";
import { HeldAskRegistry } from "../server/workspace/seats/held.ts";

export const lead: Slot = { org: "Acme", project: "alpha", label: "lead" };
export const other: Slot = { org: "Acme", project: "beta", label: "lead" };

// One card per kind, as its parker builds it (protocol/held.ts).
export const write = (n: number) => ({
  tool: "settings__set",
  keys: [{ path: `server.k${n}`, class: "live" as const, now: null, after: n }],
  reason: null,
});
export const doc = {
  path: "a.md",
  reviewable: true,
  reason: "read it",
  document_kind: "markdown" as const,
};
export const term = { reason: "type the password", terminal: 1 };
export const draft = (text: string) => ({
  id: crypto.randomUUID(),
  workspace: "W1",
  conversation: "C1",
  thread_ts: null,
  action: "post" as const,
  text,
  parts: [text],
});
export const vaultCall = {
  tool: "update" as const,
  item: "item-1",
  query: null,
  field: null,
  diff: null,
  attachment: null,
  needs_unlock: false,
};
/** A resolved update's failure words (every `*_resolved` carries them, null when none). */
export const failureOf = (u: SessionUpdate | undefined) =>
  u?.fields && "failure" in u.fields ? u.fields.failure : undefined;
/** A resolved update's ending (every `*_resolved` carries one). */
export const endingOf = (u: SessionUpdate | undefined) =>
  u?.fields && "ending" in u.fields ? u.fields.ending : undefined;

/** A registry whose emitted updates and warnings are kept for the test to read. */
export function registry() {
  const emitted: SessionUpdate[] = [];
  const logged: { event: string; fields?: Record<string, unknown> }[] = [];
  const log = {
    warn: (event: string, fields?: Record<string, unknown>) => logged.push({ event, fields }),
  };
  return { held: new HeldAskRegistry((u) => emitted.push(u), log), emitted, logged };
}
