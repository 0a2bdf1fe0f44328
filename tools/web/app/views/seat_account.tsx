import type { SeatModel } from "../model/seat.ts";
import { accountChip } from "./accounts.tsx";
import { useApp } from "./use.ts";
import { Said } from "../draw/said.tsx";

/**
 * The account the seat's requests go out under, with that account's state from the pool.
 * spec: session > account; home > accounts; forge_account_identity.
 */
export function SeatAccount(props: { seat: SeatModel }) {
  const s = useApp();
  const name = props.seat.account;
  if (!name) return null;
  const chip = accountChip(s.home?.accounts ?? null, props.seat.slot.org, name);
  return (
    <span class={`chip account ${chip.state}`} data-testid="seat-account" title={chip.detail}>
      account {name} · {chip.words}
    </span>
  );
}

/**
 * What a seat that reads LoggedOut needs, said where a phone sees it without opening More: its
 * CLI holds no credential, so each turn ends "Not logged in" until its account's config dir is
 * logged into and the seat is started again (the next occupant reads the login). spec: home >
 * agents > lifecycle; docs/quickstart.md "Your own seats".
 */
export function SeatLogin(props: { seat: SeatModel }) {
  const name = props.seat.account;
  return (
    <div class="notice" role="status" data-testid="seat-logged-out">
      This seat's CLI is not logged in, so every turn ends "Not logged in".{" "}
      {name ? <>Log in account {name} (</> : "Log in its account ("}
      <code>/login</code> in <code>claude</code> run with the account's config dir as{" "}
      <code>CLAUDE_CONFIG_DIR</code>), then Stop this seat and Start it again.
    </div>
  );
}

/**
 * The seat's own notices, every one kept: an account rotation ("forge moved this seat from ..."),
 * every account cooling, a refused credential with the server's advice. spec: notice;
 * auth_required.
 */
export function SeatNotices(props: { seat: SeatModel }) {
  const { seat } = props;
  // A refused credential is said once, in its box: its entry in the list is the same words.
  const listed = seat.notices.filter((n) => n.text !== seat.authRequired);
  const count = listed.length + (seat.authRequired ? 1 : 0);
  if (count === 0) return null;
  return (
    <details class="seat-notices" data-testid="seat-notices" open>
      <summary class="muted">
        {count} notice{count === 1 ? "" : "s"}
      </summary>
      {seat.authRequired && (
        <div class="notice" role="alert" data-testid="sign-in-needed">
          Sign-in needed: {seat.authRequired}
        </div>
      )}
      <ul>
        {listed.map((n, i) => (
          <li class={`seat-notice ${n.severity}`} key={`${n.at}:${i}`} data-testid="seat-notice">
            <span class="muted">{new Date(n.at).toLocaleTimeString()}</span> <Said text={n.text} />
          </li>
        ))}
      </ul>
    </details>
  );
}
