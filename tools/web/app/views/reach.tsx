import { useEffect, useState } from "preact/hooks";
import type { ForgeClient } from "../net/client.ts";
import { staleWords } from "./stale_words.ts";
import { useForges } from "./use.ts";

/** Whether the browser says it has a network, re-drawn as that moves. */
function useOnline(): boolean {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(navigator.onLine);
    addEventListener("online", on);
    addEventListener("offline", on);
    return () => {
      removeEventListener("online", on);
      removeEventListener("offline", on);
    };
  }, []);
  return online;
}

/** A page served from this machine: forge allows its origin without being told. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * What the page cannot reach, said once at its top: with no network, that this is the page kept
 * on this device and which forges it cannot reach; with a network, each forge that has never
 * answered this page and, where the page is served from another machine, the origin that
 * forge's `[server] allowed_origins` must list (spec: The socket > Reaching it).
 */
export function Reach() {
  const all = useForges();
  const online = useOnline();
  const unreached = all.list.filter((c) => c.state.link !== "open");
  if (!online) {
    return (
      <div class="banner" data-testid="offline" role="status">
        You are offline: this is the page this device keeps, drawn without its forges.
        {unreached.length > 0 && ` It cannot reach ${unreached.map((c) => c.host).join(", ")}.`}
      </div>
    );
  }
  const never = unreached.filter((c) => c.state.greeting === null && c.state.link === "down");
  if (never.length === 0 || LOOPBACK.test(location.hostname)) return null;
  return (
    <div class="notice" data-testid="unreached" role="status">
      {never.map((c) => c.host).join(", ")} {never.length === 1 ? "has" : "have"}{" "}
      not answered this page. If forge runs there, its <code>[server] allowed_origins</code>{" "}
      must list this page's origin, <code>{location.origin}</code>.
    </div>
  );
}

/** A forge the page is about is down: what is drawn is from before the drop. Always named by
 * the address it dials, one forge or several: a person checks that address first. */
export function StaleBanner(props: { c: ForgeClient }) {
  const s = props.c.state;
  const state = { ...s, greeted: s.greeting !== null, drawn: s.home !== null };
  return (
    <div class="banner" data-testid="stale" role="status">
      {staleWords(state, props.c.link.url)}
    </div>
  );
}
