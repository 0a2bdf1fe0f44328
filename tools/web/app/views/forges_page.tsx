import { useState } from "preact/hooks";
import type { ForgeClient } from "../net/client.ts";
import { askNotify, notifyPermission } from "../pwa/notify_gate.ts";
import { pushWords } from "../pwa/shell.ts";
import { ForgeServices } from "./forge_services.tsx";
import { useForges } from "./use.ts";
import { permissionWords } from "./permission_words.ts";

/**
 * The forges page: every forge this page speaks to (one socket each) with its state, a forge
 * added by its address or removed, and what this browser does for the person - notifications,
 * each forge's Web Push subscription, whether it is a secure context at all.
 */
export function ForgesPage() {
  const all = useForges();
  const [address, setAddress] = useState("");
  const [why, setWhy] = useState<string | null>(null);
  const add = (e: Event) => {
    e.preventDefault();
    const refused = all.add(address);
    setWhy(refused);
    if (!refused) setAddress("");
  };
  return (
    <div class="forges" data-testid="forges-page">
      <header class="page-head">
        <h1>Forges</h1>
      </header>
      <ul class="forge-list">
        {all.list.map((c) => (
          <ForgeRow
            c={c}
            onRemove={all.list.length > 1 ? () => all.remove(c.host) : null}
            key={c.host}
          />
        ))}
      </ul>
      <form class="forge-add" onSubmit={add}>
        <input
          data-testid="forge-address"
          placeholder="host:port, or wss://host:port/socket"
          value={address}
          onInput={(e) => setAddress(e.currentTarget.value)}
        />
        <button type="submit" data-testid="forge-add">Add forge</button>
      </form>
      {why && <div class="notice" data-testid="forge-add-why">{why}</div>}
      <ThisBrowser />
    </div>
  );
}

/** A forge's own pages, reached from its row (the rail's links follow the forge on screen). */
const PAGES = [
  ["board", "Board"],
  ["usage", "Usage"],
  ["extensions", "Plugins"],
  ["settings", "Settings"],
] as const;

function ForgeRow(props: { c: ForgeClient; onRemove: (() => void) | null }) {
  const { c } = props;
  const s = c.state;
  const notify = s.home?.notify;
  const webpush = notify?.channels.webpush;
  return (
    <li class="forge-row" data-testid={`forge-row-${c.host}`}>
      <div>
        <b>{c.host}</b> <span class={`link ${s.link}`}>{s.link}</span>
        {s.greeting && <span class="muted">forge {s.greeting.forge_version_short}</span>}
      </div>
      <div class="muted forge-url">{c.link.url}</div>
      <div class="forge-pages">
        {PAGES.map(([path, label]) => <a href={`#/@${c.host}/${path}`} key={path}>{label}</a>)}
      </div>
      {webpush && (
        <div class="muted" data-testid="forge-push">
          Web Push: {webpush.state === "off" ? `off (${webpush.why ?? "not configured"})` : (
            pushWords.get(c.host) ?? webpush.why ?? webpush.state
          )}
        </div>
      )}
      <ForgeServices c={c} />
      {props.onRemove && (
        <button type="button" data-testid="forge-remove" onClick={props.onRemove}>
          Remove
        </button>
      )}
    </li>
  );
}

/** This browser: notifications asked for on a press, and what each forge's push came to. */
function ThisBrowser() {
  const forges = useForges();
  const [permission, setPermission] = useState(notifyPermission());
  return (
    <section class="area this-browser" data-testid="this-browser">
      <h2>This browser</h2>
      <p>
        Notifications: <span data-testid="notify-permission">{permissionWords(permission)}</span>
        {permission === "default" && (
          <button
            type="button"
            data-testid="notify-on"
            onClick={async () => setPermission(await askNotify(forges))}
          >
            Turn on notifications
          </button>
        )}
      </p>
      <p class="muted">
        While this page is hidden, a seat that needs you calls here by the rules forge's own pushes
        keep; a forge with Web Push on calls this browser even when the page is closed.
      </p>
    </section>
  );
}
