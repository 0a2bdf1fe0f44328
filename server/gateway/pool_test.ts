import { assertEquals } from "../../tests/assert.ts";
import type { ForgeConfig, OrgConfig } from "../config/types.ts";
import { AccountPool } from "./pool.ts";
import { projectBinding } from "./wire.ts";

let now = 1_000_000;
const account = (name: string, token: string | null) => ({
  display_name: name,
  provider: "anthropic",
  token,
  base_url: null,
  config_dir: token ? null : `/cfg/${name}`,
  models: [],
  env: {},
});
const org: OrgConfig = {
  name: "Acme",
  accounts: ["A", "B"],
  fallback_accounts: ["F"],
  browser_profile: null,
  projects: [],
};
const config = {
  accounts: [account("A", "a"), account("B", "b"), account("F", null)],
  orgs: [org],
  areas: {},
} as unknown as ForgeConfig;
const RULES = { streakCount: 1, streakWindowMs: 1000, noResetCooldownMs: 10_000 };
const SLOT = { org: "Acme", project: "p", label: "lead" };

function pool() {
  const p = new AccountPool(() => now);
  p.sync(config);
  for (const a of p.accounts()) a.state = "ready";
  return p;
}

// spec: home > projects (would_bind, chip): the org's accounts, then its fallback_accounts.
Deno.test("pool: selection walks accounts then fallbacks, skipping cooling and failed ones", () => {
  const p = pool();
  assertEquals(p.get("F")!.kind, "config_dir");
  assertEquals(p.choose(org)?.config.display_name, "A");
  p.get("A")!.clock.rateLimited(now, null, RULES);
  assertEquals(p.choose(org)?.config.display_name, "B");
  p.get("B")!.state = "failed";
  assertEquals(projectBinding(p, org, now).chip, { account_name: "F", state: "ready" });
  p.get("F")!.clock.rateLimited(now, null, RULES);
  const none = projectBinding(p, org, now);
  assertEquals(none.would_bind, false);
  assertEquals(none.chip, { account_name: "A", state: "cooling" });
});

Deno.test("pool: a seat moves off a cooling account, stays put while it serves, and returns from a fallback", () => {
  const p = pool();
  const o: OrgConfig = { ...org, accounts: ["A"], fallback_accounts: ["B"] };
  assertEquals(p.bind(SLOT, o)?.config.display_name, "A");
  assertEquals(p.pick(SLOT, o)?.movedFrom, null);
  p.get("A")!.clock.rateLimited(now, null, RULES);
  const moved = p.pick(SLOT, o)!;
  assertEquals([moved.account.config.display_name, moved.movedFrom], ["B", "A"]);
  assertEquals(p.pick(SLOT, o)?.movedFrom, null, "it stays on B while A cools");
  p.get("B")!.clock.rateLimited(now, null, RULES);
  const stuck = p.pick(SLOT, o)!;
  assertEquals([stuck.account.config.display_name, stuck.exhausted], ["B", true]);
  now += 10_001; // both cooldowns end
  const back = p.pick(SLOT, o)!;
  assertEquals([back.account.config.display_name, back.movedFrom], ["A", "B"]);
});

Deno.test("pool: a reload keeps an unchanged account's state and probes a changed one", () => {
  const p = pool();
  const changed = {
    ...config,
    accounts: [account("A", "a"), account("B", "b2"), account("F", null)],
  } as ForgeConfig;
  const fresh = p.sync(changed);
  assertEquals(fresh.map((a) => a.config.display_name), ["B"]);
  assertEquals(p.get("A")!.state, "ready");
  assertEquals(p.get("B")!.state, "probing");
});

Deno.test("pool: a running CLI moves only to accounts it can use - token ones, or its own login", () => {
  const p = pool();
  const onlyLogins: OrgConfig = { ...org, accounts: ["F"], fallback_accounts: ["A"] };
  // Launched on the config_dir account F: it may move to the token account A...
  assertEquals(p.bind(SLOT, onlyLogins)?.config.display_name, "F");
  p.get("F")!.clock.rateLimited(now, null, RULES);
  assertEquals(p.pick(SLOT, onlyLogins)?.account.config.display_name, "A");
  // ...but a seat launched on a token account never moves to a config_dir login it does not hold.
  const other = { ...SLOT, label: "w1" };
  const tokenFirst: OrgConfig = { ...org, accounts: ["B"], fallback_accounts: ["F"] };
  now += 20_000;
  assertEquals(p.bind(other, tokenFirst)?.config.display_name, "B");
  p.get("B")!.clock.rateLimited(now, null, RULES);
  const stuck = p.pick(other, tokenFirst)!;
  assertEquals([stuck.account.config.display_name, stuck.exhausted], ["B", true]);
});
