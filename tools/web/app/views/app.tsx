import { useEffect, useState } from "preact/hooks";
import { parseSlotName } from "../../../../protocol/mod.ts";
import { Home } from "./home.tsx";
import { Rail } from "./rail.tsx";
import { SeatPage } from "./seat.tsx";
import { SettingsPage } from "./settings.tsx";
import { UsagePage } from "./usage.tsx";
import { BoardPage } from "./board_page.tsx";
import { ExtensionsPage } from "./extensions.tsx";
import { ModelsPage } from "./models.tsx";
import { Notices } from "./notices.tsx";
import { client, useApp } from "./use.ts";

/** A seat page's tabs. */
export type SeatTab = "chat" | "review" | "terminal" | "browser";
const SEAT_TABS = ["review", "terminal", "browser"] as const;

/** The pages with no seat, by their address (`#/<page>`). */
const PAGES = ["settings", "usage", "board", "extensions", "models"] as const;
type Page = (typeof PAGES)[number];

/**
 * The page's address: `#/`, `#/seat/<org>/<project>/<label>[/review|/terminal|/browser]`, or
 * one of PAGES.
 */
export type Route =
  | { page: "home" }
  | { page: "seat"; seat: string; tab: SeatTab }
  | { page: Page };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "seat" && parts.length >= 4) {
    const tab = SEAT_TABS.find((t) => t === parts[4]) ?? "chat";
    return { page: "seat", seat: parts.slice(1, 4).join("/"), tab };
  }
  const page = PAGES.find((p) => p === parts[0]);
  return page ? { page } : { page: "home" };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

export function App(props: { clientBuild: string }) {
  const state = useApp();
  const route = useRoute();
  const c = client();
  const voice = state.home?.voice.enabled === true;
  useEffect(() => {
    if (route.page === "seat") {
      const slot = parseSlotName(route.seat);
      if (slot) c.openSeat(slot, route.tab === "review");
    } else {
      c.closeSeat();
    }
    c.hold("usage", route.page === "usage" || route.page === "home");
    c.hold("board", route.page === "home" || route.page === "board");
    c.hold("extensions", route.page === "extensions");
    // A seat page draws the speaking model's row from the models subject when voice is on.
    c.hold("dictate_models", route.page === "models" || route.page === "seat" && voice);
  }, [
    route.page,
    route.page === "seat" ? route.seat : "",
    route.page === "seat" && route.tab,
    voice,
  ]);
  const stale = state.link !== "open";
  return (
    <div class={`frame${stale ? " stale" : ""}`}>
      <Rail clientBuild={props.clientBuild} route={route} />
      <main data-testid="main">
        {stale && (
          <div class="banner" data-testid="stale" role="status">
            {state.link === "connecting" ? "Connecting to forge…" : "Disconnected from forge."}
            {state.retryInMs !== null &&
              ` Trying again in ${Math.ceil(state.retryInMs / 1000)} s.`}
            {state.home && " What is drawn below is from before the drop."}
          </div>
        )}
        <Notices />
        {route.page === "home" && <Home />}
        {route.page === "seat" && (
          <SeatPage
            tab={route.tab}
            name={route.seat}
          />
        )}
        {route.page === "settings" && <SettingsPage />}
        {route.page === "usage" && <UsagePage />}
        {route.page === "board" && <BoardPage />}
        {route.page === "extensions" && <ExtensionsPage />}
        {route.page === "models" && <ModelsPage />}
      </main>
    </div>
  );
}
