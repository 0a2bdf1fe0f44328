import { assertEquals } from "../../../../tests/assert.ts";
import type { AgentRow, FleetRow, HomeProject, UsageSnapshot } from "../../../../protocol/mod.ts";
import { agoWords, liveWords, projectGlance } from "./project_glance.ts";

// spec: What a subject carries > home (projects, fleet, agents) and > usage (by_project): the
// home's per-project summary says what a person wants at a glance, and nothing when empty.

const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);
const at = (ms: number) => ({ secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: 0 });

const project: HomeProject = {
  project: {
    key: "Acme/alpha",
    name: "alpha",
    org: "Acme",
    path: "/p/alpha",
    display_path: "~/p/alpha",
    accounts: [],
    fallback_accounts: [],
    has_model: false,
    sessions: [{ session_id: "s1", last_activity: at(NOW - 3 * 3_600_000), cwd: "/p/alpha" }],
  },
  work: { branch: "main", changed: 2, gate: "in_repo" },
  would_bind: true,
  chip: null,
};

function agent(label: string, lifecycle: AgentRow["lifecycle"], more: Partial<AgentRow> = {}) {
  return {
    slot: { org: "Acme", project: "alpha", label },
    label,
    lifecycle,
    has_background_work: false,
    pending: null,
    pending_depth: 0,
    pending_seq: null,
    last_activity: null,
    reason: null,
    failed_turn: null,
    tree: null,
    work: null,
    ...more,
  } satisfies AgentRow;
}

const fleet: FleetRow = {
  project: "alpha",
  slots: 3,
  live_workers: 1,
  queue: 2,
  unowned: 1,
  live: 2,
  cap: 4,
  waiting_on_user: 1,
  rows: 5,
  misses: [{ unaccounted_worker: "ghost" }],
};

function usage(cost: number): UsageSnapshot {
  const row = {
    name: "alpha",
    messages: 3,
    input_tokens: 1000,
    output_tokens: 200,
    cache_creation_tokens: 30,
    cache_read_tokens: 4,
    cost_usd: cost,
    unpriced_models: [],
  };
  const window = {
    since: null,
    by_model: [],
    by_project: [{ ...row, path: "/p/alpha", forge_project: true }],
    by_account: [],
    total: { ...row, name: "total" },
  };
  return {
    today: window,
    week: window,
    month: window,
    lifetime: window,
    pricing_available: true,
    prices: { source: "table", as_of: "2026-01-01" },
    scanned_at: "2026-01-02T12:00:00Z",
    week_starts_on: "monday",
  };
}

Deno.test("project glance: seats by state, asks waiting, board, changes, usage, last activity", () => {
  const agents = [
    agent("lead", "Running", { last_activity: at(NOW - 5 * 60_000) }),
    agent("w1", "Attention", { pending: "permission", pending_depth: 1 }),
    agent("w2", "Idle"),
    agent("w3", "Idle"),
  ];
  assertEquals(projectGlance({ project, agents, fleet, usage: usage(0.0123), now: NOW }), {
    seats: "4 seats: 1 Attention, 1 Running, 2 Idle",
    asks: "2 asks waiting",
    board: "2 of 5 tasks ready, 1 unowned, 1 waiting on you",
    misses: "unaccounted: ghost",
    changes: "2 files changed on main",
    today: "today 1,234 tokens $0.01",
    active: "last active 5 min ago",
  });
});

Deno.test("project glance: usage is the project's by path, not another's of its name", () => {
  const elsewhere = { ...project, project: { ...project.project, path: "/q/alpha" } };
  const glance = projectGlance({
    project: elsewhere,
    agents: [],
    fleet,
    usage: usage(1),
    now: NOW,
  });
  assertEquals(glance.today, null);
});

Deno.test("project glance: an empty project says nothing but its transcripts' age", () => {
  const quiet = { ...project, work: { branch: null, changed: 0, gate: "in_repo" as const } };
  const empty = { ...fleet, rows: 0, queue: 0, unowned: 0, waiting_on_user: 0, misses: [] };
  assertEquals(projectGlance({ project: quiet, agents: [], fleet: empty, usage: null, now: NOW }), {
    seats: null,
    asks: null,
    board: null,
    misses: null,
    changes: null,
    today: null,
    active: "last active 3 h ago",
  });
});

Deno.test("project glance: how long ago, coarse", () => {
  assertEquals(agoWords(NOW - 10_000, NOW), "just now");
  assertEquals(agoWords(NOW - 59 * 60_000, NOW), "59 min ago");
  assertEquals(agoWords(NOW - 25 * 3_600_000, NOW), "1 day ago");
  assertEquals(agoWords(NOW - 72 * 3_600_000, NOW), "3 days ago");
  // A server clock ahead of the page's is not "in the future".
  assertEquals(agoWords(NOW + 60_000, NOW), "just now");
});

Deno.test("project glance: the live count says what it counts", () => {
  assertEquals(liveWords(fleet), "2 seats live, room for 4");
  assertEquals(liveWords({ ...fleet, live: 1, cap: 3 }), "1 seat live, room for 3");
  assertEquals(liveWords({ ...fleet, live: 0, cap: 1 }), "0 seats live, room for 1");
});
