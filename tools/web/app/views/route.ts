import { parseSlotName, sameSlot } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";

/** A seat page's tabs. */
export type SeatTab = "chat" | "review" | "terminal" | "browser";
const SEAT_TABS = ["review", "terminal", "browser"] as const;

/** The pages with no seat, by their address (`#/<page>`). */
const PAGES = ["settings", "usage", "board", "extensions", "models", "forges"] as const;
type Page = (typeof PAGES)[number];

/**
 * The page's address: `#/`, `#/seat/<org>/<project>/<label>[/review|/terminal|/browser]`, or
 * one of PAGES; with several forges, prefixed by the forge's host (`#/@<host>/seat/...`).
 * `forge` is null where the address names none (one forge, or a link from a push).
 */
export type Route =
  & { forge: string | null }
  & (
    | { page: "home" }
    | { page: "seat"; seat: string; tab: SeatTab }
    | { page: Page }
  );

export function parseRoute(hash: string): Route {
  let parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  let forge: string | null = null;
  if (parts[0]?.startsWith("@")) {
    forge = parts[0].slice(1) || null;
    parts = parts.slice(1);
  }
  if (parts[0] === "seat" && parts.length >= 4) {
    const tab = SEAT_TABS.find((t) => t === parts[4]) ?? "chat";
    return { forge, page: "seat", seat: parts.slice(1, 4).join("/"), tab };
  }
  const page = PAGES.find((p) => p === parts[0]);
  return page ? { forge, page } : { forge, page: "home" };
}

/**
 * The forge an address is about: the one it names; for a seat it does not qualify (an ntfy or
 * Gotify tap's link, written by forge without knowing this page holds several), the forge whose
 * seat of that name is waiting on the person (the push was most likely about it), then the
 * first whose home lists that seat; else the first forge.
 */
export function routeForge(route: Route, list: readonly ForgeClient[]): ForgeClient {
  const named = route.forge === null ? null : list.find((c) => c.host === route.forge);
  if (named) return named;
  if (route.page === "seat") {
    const slot = parseSlotName(route.seat);
    const held = (c: ForgeClient) => c.state.home?.agents.find((a) => sameSlot(a.slot, slot!));
    const waiting = slot && list.find((c) => (held(c)?.pending ?? null) !== null);
    if (waiting) return waiting;
    const holder = slot && list.find((c) => held(c) !== undefined);
    if (holder) return holder;
  }
  return list[0];
}
