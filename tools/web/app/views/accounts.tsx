import type { AccountsWire } from "../../../../protocol/mod.ts";

/** What a chip says about one account: its state word, its words, and the longer why. */
export interface ChipRead {
  state: "probing" | "ready" | "cooling" | "at_cap" | "failed" | "unknown";
  words: string;
  detail: string;
}

const time = (ms: number) => new Date(ms).toLocaleTimeString();

/**
 * One account's chip, read from the pool: its first probe running, ready, cooling until when,
 * at its cap, or failed (a sign-in or a login is needed) with the server's own words. Cooling and the cap
 * are the org's pool row's, so `org` picks the row. spec: home > accounts; the original's
 * account updates.
 */
export function accountChip(pool: AccountsWire | null, org: string | null, name: string): ChipRead {
  const loading = pool?.loading.find((l) => l.display_name === name);
  const rows = pool?.orgs.filter((o) => org === null || o.org === org).flatMap((o) => o.rows) ?? [];
  const row = rows.find((r) => r.display_name === name);
  if (!loading) return { state: "unknown", words: "not in the pool", detail: "" };
  if (loading.state === "probing") {
    return { state: "probing", words: "probing", detail: "its first probe is running" };
  }
  if (loading.state === "failed") {
    const retry = loading.retry_after ? ` (next try ${time(loading.retry_after)})` : "";
    // A refused credential needs a sign-in (or a new token); a config dir whose seats' CLI
    // found no login in it needs that login (the words a logged-out seat reads too); anything
    // else is a failure. The server's words carry the folder and the fix: the chip's detail.
    const why = loading.last_error ?? "";
    const refused = /refused|HTTP 40[13]/.test(why);
    const noLogin = /is not logged in/.test(why);
    return {
      state: "failed",
      words: noLogin ? "needs a login" : refused ? "sign-in needed" : "failed",
      detail: `${loading.last_error ?? "the probe failed"}${retry}`,
    };
  }
  if (row?.cooling) {
    const until = row.cooling_until ? ` until ${time(row.cooling_until)}` : "";
    return { state: "cooling", words: `cooling${until}`, detail: row.unusable ?? "" };
  }
  if (row?.at_cap) return { state: "at_cap", words: "at cap", detail: row.unusable ?? "" };
  const seats = row ? ` · ${row.seats} seat${row.seats === 1 ? "" : "s"}` : "";
  return { state: "ready", words: `ready${seats}`, detail: loading.last_error ?? "" };
}

/** Every account in the pool as a chip, with its words; a failed one shows the server's advice. */
export function AccountChips(props: { pool: AccountsWire | null }) {
  const pool = props.pool;
  if (!pool) return null;
  return (
    <div class="chips" data-testid="accounts">
      {pool.loading.map((a) => {
        const chip = accountChip(pool, null, a.display_name);
        return (
          <span
            class={`chip account ${chip.state}`}
            key={a.display_name}
            data-testid={`account-${a.display_name}`}
            data-state={chip.state}
            title={chip.detail}
          >
            {a.display_name} · {chip.words}
            {chip.state === "failed" && <span class="advice">{chip.detail}</span>}
          </span>
        );
      })}
      {!pool.gateway.ready && pool.gateway.bind_error && (
        <span class="chip failed">gateway: {pool.gateway.bind_error}</span>
      )}
    </div>
  );
}
