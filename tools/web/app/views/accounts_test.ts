import { assertEquals } from "../../../../tests/assert.ts";
import type { AccountsWire } from "../../../../protocol/mod.ts";
import { accountChip } from "./accounts.tsx";

// spec: home > accounts - loading rows (probing, ready, failed) and each org's pool rows
// (at_cap, cooling, cooling_until); the chip says which, cooling and the cap first.

function pool(
  state: "probing" | "ready" | "failed",
  row: { at_cap?: boolean; cooling_until?: number | null } = {},
  last_error: string | null = null,
): AccountsWire {
  return {
    loading: [{ display_name: "A", kind: "token", state, last_error, retry_after: null }],
    all_loaded: state !== "probing",
    gateway: { ready: true, port: 1, bind_error: null },
    usage: [],
    orgs: [{
      org: "Acme",
      accounts: ["A"],
      fallback_accounts: [],
      rows: [{
        display_name: "A",
        provider: "anthropic",
        kind: "token",
        fallback: false,
        loading: state,
        at_cap: row.at_cap ?? false,
        cooling: (row.cooling_until ?? null) !== null,
        cooling_until: row.cooling_until ?? null,
        unusable: null,
        seats: 2,
      }],
    }],
  };
}

Deno.test("account chip: probing, ready, cooling until, at cap, sign-in needed, needs a login, failed", () => {
  const at = Date.UTC(2026, 0, 1, 12, 0, 0);
  const words = (p: AccountsWire) => {
    const c = accountChip(p, "Acme", "A");
    return [c.state, c.words.replace(/until .*/, "until T")];
  };
  assertEquals(words(pool("probing")), ["probing", "probing"]);
  assertEquals(words(pool("ready")), ["ready", "ready · 2 seats"]);
  assertEquals(words(pool("ready", { cooling_until: at })), ["cooling", "cooling until T"]);
  assertEquals(words(pool("ready", { at_cap: true })), ["at_cap", "at cap"]);
  assertEquals(
    words(pool("failed", {}, "http://x refused the token (HTTP 401)")),
    ["failed", "sign-in needed"],
  );
  assertEquals(words(pool("failed", {}, "http://x could not be reached")), ["failed", "failed"]);
  // A config dir a seat's CLI found no login in: the words a logged-out seat reads too.
  const noLogin = "account A is not logged in: a seat's claude found no login in /c. " +
    "Run claude with CLAUDE_CONFIG_DIR=/c and /login, then start the seat again";
  assertEquals(words(pool("failed", {}, noLogin)), ["failed", "needs a login"]);
  assertEquals(accountChip(pool("failed", {}, noLogin), "Acme", "A").detail, noLogin);
  assertEquals(accountChip(null, null, "A").state, "unknown");
});
