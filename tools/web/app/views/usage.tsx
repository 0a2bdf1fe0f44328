import type { UsageRow, UsageWindow } from "../../../../protocol/mod.ts";
import { TOKEN_FIELDS } from "./totals.tsx";
import { client, useApp } from "./use.ts";
import { ReadRefused } from "./read_refused.tsx";

const WINDOWS = ["today", "week", "month", "lifetime"] as const;

/**
 * The usage page: each window by model and by project, tokens and notional cost, with the models
 * no price table covers named. spec: What a subject carries > usage ("Nothing updates this
 * subject": Refresh asks again).
 */
export function UsagePage() {
  const s = useApp();
  const u = s.usage;
  return (
    <div class="usage" data-testid="usage">
      <header class="page-head">
        <h1>Usage</h1>
        <button
          type="button"
          onClick={() => client().reread("usage")}
        >
          Refresh
        </button>
      </header>
      {!u
        ? s.refusedReads.usage
          ? <ReadRefused subject="usage" page="usage" testId="usage-refused" />
          : <p class="muted">Reading the usage pool…</p>
        : (
          <>
            {!u.pricing_available && (
              <p class="notice">
                No price table is loaded: every cost below is a placeholder zero.
              </p>
            )}
            {WINDOWS.map((w) => <Window name={w} data={u[w]} key={w} />)}
          </>
        )}
    </div>
  );
}

function Window(props: { name: string; data: UsageWindow }) {
  const by = (k: "by_model" | "by_project") => props.data[k];
  const total = props.data.total;
  return (
    <section class="usage-window" data-testid={`usage-${props.name}`}>
      <h2>
        {props.name} <span class="muted">{tokens(total)} tokens · {cost(total)}</span>
      </h2>
      <div class="usage-cols">
        <Table title="by model" rows={by("by_model")} />
        <Table title="by project" rows={by("by_project")} />
      </div>
    </section>
  );
}

function Table(props: { title: string; rows: UsageRow[] }) {
  return (
    <table class="usage-table">
      <thead>
        <tr>
          <th>{props.title}</th>
          <th>tokens</th>
          <th>cost</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r, i) => (
          <tr key={i}>
            <td>
              {r.name}
              {r.unpriced_models.length > 0 && (
                <span class="muted" data-testid="unpriced">
                  (unpriced: {r.unpriced_models.join(", ")})
                </span>
              )}
            </td>
            <td>{tokens(r)}</td>
            <td>{cost(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function tokens(r: UsageRow): string {
  return TOKEN_FIELDS.reduce((n, k) => n + r[k], 0).toLocaleString();
}

function cost(r: UsageRow): string {
  return `$${r.cost_usd.toFixed(2)}`;
}
