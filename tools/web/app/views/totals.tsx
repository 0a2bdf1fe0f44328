import type { UsageSnapshot } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";
import { seatsWaiting } from "./waiting.ts";

/** The token counts a usage row or window adds up to its tokens. */
export const TOKEN_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_tokens",
  "cache_read_tokens",
] as const;
const WINDOWS = ["today", "week"] as const;

/** One usage window's total: its tokens and notional cost (null where the window has none). */
export interface WindowTotal {
  tokens: number;
  cost: number | null;
}

/** A window's total from the usage subject (spec: usage), or null before it is read. */
export function windowTotal(
  usage: UsageSnapshot | null,
  name: (typeof WINDOWS)[number],
): WindowTotal | null {
  if (!usage) return null;
  const total = usage[name].total;
  const tokens = TOKEN_FIELDS.reduce((n, k) => n + total[k], 0);
  return { tokens, cost: total.cost_usd };
}

function words(name: string, t: WindowTotal): string {
  const cost = t.cost === null ? "" : `$${t.cost.toFixed(2)}`;
  return `${name} ${t.tokens.toLocaleString()} tokens ${cost}`;
}

/** Usage at a glance: today's and this week's totals from the usage subject. */
export function UsageGlance(props: { usage: UsageSnapshot | null }) {
  const usage = props.usage;
  if (!usage) return null;
  const lines = WINDOWS.flatMap((w) => {
    const t = windowTotal(usage, w);
    return t ? [words(w, t)] : [];
  });
  return <a href="#/usage" class="glance muted" data-testid="usage-glance">{lines.join(" · ")}</a>;
}

/** Two windows' totals added; a cost stays null only where neither side has one. */
function add(a: WindowTotal | null, b: WindowTotal | null): WindowTotal | null {
  if (!a || !b) return a ?? b;
  const cost = a.cost === null && b.cost === null ? null : (a.cost ?? 0) + (b.cost ?? 0);
  return { tokens: a.tokens + b.tokens, cost };
}

/**
 * The header's totals over every forge the page holds: how many are down, seats, seats live,
 * seats waiting on the person, and each usage window's tokens and cost, each the sum of the
 * forges' own (a forge that is down adds what it last said).
 */
export function Totals(props: { list: readonly ForgeClient[] }) {
  const { list } = props;
  const seats = list.reduce((n, c) => n + (c.state.home?.agents.length ?? 0), 0);
  const live = list.reduce(
    (n, c) => n + (c.state.home?.fleet.reduce((m, f) => m + f.live, 0) ?? 0),
    0,
  );
  const down = list.filter((c) => c.state.link !== "open").length;
  const parts = [
    `${list.length} forges${down > 0 ? ` (${down} down)` : ""}`,
    `${seats} seats`,
    `${live} live`,
    `${seatsWaiting(list)} waiting`,
  ];
  for (const w of WINDOWS) {
    const t = list.reduce<WindowTotal | null>(
      (sum, c) => add(sum, windowTotal(c.state.usage, w)),
      null,
    );
    if (t) parts.push(words(w, t).trim());
  }
  return <div class="glance muted" data-testid="totals">{parts.join(" · ")}</div>;
}
