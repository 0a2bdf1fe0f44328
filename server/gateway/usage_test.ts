import { assert, assertEquals } from "../../tests/assert.ts";
import { RotationClock } from "./rotation.ts";
import { atCap, resetFrom, usageFrom } from "./usage.ts";

const NOW = 1_700_000_000_000;
const secs = (ms: number) => String(ms / 1000);

// spec: home > accounts (each account's cached usage snapshot): read from the upstream's headers.
Deno.test("usage: the unified windows and an API key's limits are read from the headers", () => {
  const h = new Headers({
    "anthropic-ratelimit-unified-status": "allowed_warning",
    "anthropic-ratelimit-unified-5h-utilization": "0.9",
    "anthropic-ratelimit-unified-5h-reset": secs(NOW + 60_000),
    "anthropic-ratelimit-unified-5h-status": "allowed_warning",
    "anthropic-ratelimit-unified-overage-status": "rejected",
    "anthropic-ratelimit-requests-limit": "50",
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": new Date(NOW + 30_000).toISOString(),
    "request-id": "r",
  });
  const u = usageFrom(h, NOW)!;
  assertEquals(u.status, "allowed_warning");
  assertEquals(u.windows, [
    {
      name: "5h",
      utilization: 0.9,
      limit: null,
      remaining: null,
      resets_at: NOW + 60_000,
      status: "allowed_warning",
    },
    {
      name: "requests",
      utilization: null,
      limit: 50,
      remaining: 0,
      resets_at: NOW + 30_000,
      status: null,
    },
  ]);
  assert(atCap(u, NOW), "no requests remaining until the reset is a cap");
  assert(!atCap(u, NOW + 31_000), "a cap whose reset passed is stale, not a cap");
  assertEquals(usageFrom(new Headers({ "request-id": "r" }), NOW), null);
});

Deno.test("usage: the reset a 429 names - retry-after, then the unified reset, then a capped window", () => {
  assertEquals(resetFrom(new Headers({ "retry-after": "12" }), NOW), NOW + 12_000);
  assertEquals(
    resetFrom(new Headers({ "anthropic-ratelimit-unified-reset": secs(NOW + 90_000) }), NOW),
    NOW + 90_000,
  );
  const capped = new Headers({
    "anthropic-ratelimit-unified-7d-utilization": "1",
    "anthropic-ratelimit-unified-7d-reset": secs(NOW + 500_000),
  });
  assertEquals(resetFrom(capped, NOW), NOW + 500_000);
  assertEquals(resetFrom(new Headers({ "retry-after": "0" }), NOW), null);
  assertEquals(resetFrom(new Headers(), NOW), null);
});

// The original forge's [gateway] keys: streak_count 429s inside streak_window_secs; the cooldown is
// the reset time, else no_reset_cooldown_secs.
Deno.test("rotation: a streak inside the window cools; a gap or an answer restarts the count", () => {
  const rules = { streakCount: 3, streakWindowMs: 10_000, noResetCooldownMs: 5_000 };
  const c = new RotationClock();
  assertEquals(c.rateLimited(NOW, null, rules), null);
  assertEquals(c.rateLimited(NOW + 1_000, null, rules), null);
  c.answered();
  assertEquals(c.rateLimited(NOW + 2_000, null, rules), null, "an answer ended the streak");
  assertEquals(c.rateLimited(NOW + 20_000, null, rules), null, "outside the window");
  assertEquals(c.rateLimited(NOW + 21_000, null, rules), null);
  assertEquals(c.rateLimited(NOW + 22_000, null, rules), NOW + 27_000, "no reset: the default");
  assert(c.cooling(NOW + 26_999) && !c.cooling(NOW + 27_000));
  const d = new RotationClock();
  for (let i = 0; i < 2; i++) d.rateLimited(NOW, NOW + 60_000, rules);
  assertEquals(d.rateLimited(NOW, NOW + 60_000, rules), NOW + 60_000, "the named reset");
  d.cooled();
  assert(!d.cooling(NOW));
});
