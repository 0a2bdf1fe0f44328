import { useEffect, useState } from "preact/hooks";
import { parseSlotName } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";
import { viewDrawn } from "../pwa/shell.ts";
import { BoardPage } from "./board_page.tsx";
import { ExtensionsPage } from "./extensions.tsx";
import { ForgesPage } from "./forges_page.tsx";
import { Home } from "./home.tsx";
import { ModelsPage } from "./models.tsx";
import { Notices } from "./notices.tsx";
import { Rail } from "./rail.tsx";
import { Reach, StaleBanner } from "./reach.tsx";
import { parseRoute, type Route, routeForge } from "./route.ts";
import { SeatPage } from "./seat.tsx";
import { Secure } from "./secure.tsx";
import { SettingsPage } from "./settings.tsx";
import { UsagePage } from "./usage.tsx";
import { ForgeScope, setFocus, useForges } from "./use.ts";
import { useWaitingCount } from "./waiting.ts";

export type { Route, SeatTab } from "./route.ts";

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    // A hash moved between the first draw and this listener (a link followed as the page loads)
    // fired no event this page heard: read it once now.
    on();
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

/**
 * What each forge holds for the page on screen: the focused forge (the one the address is
 * about) the seat and the page's subject; on the home every forge its usage and board, since
 * the home draws them all. A forge not focused shows no seat.
 */
function useHolds(route: Route, focus: ForgeClient, list: readonly ForgeClient[]): void {
  const voice = focus.state.home?.voice.enabled === true;
  useEffect(() => {
    for (const c of list) if (c !== focus) c.closeSeat();
    for (const c of list) {
      const mine = c === focus;
      const home = route.page === "home";
      if (mine && route.page === "seat") {
        const slot = parseSlotName(route.seat);
        if (slot) c.openSeat(slot, route.tab === "review");
      } else if (mine) {
        c.closeSeat();
      }
      c.hold("usage", home || mine && route.page === "usage");
      c.hold("board", home || mine && route.page === "board");
      c.hold("extensions", mine && route.page === "extensions");
      // A seat page draws the speaking model's row from the models subject when voice is on.
      c.hold("dictate_models", mine && (route.page === "models" || route.page === "seat" && voice));
    }
  }, [
    route.page,
    route.page === "seat" ? route.seat : "",
    route.page === "seat" && route.tab,
    voice,
    focus,
    list.length,
  ]);
}

export function App(props: { clientBuild: string }) {
  const all = useForges();
  const route = useRoute();
  const focus = routeForge(route, all.list);
  setFocus(focus);
  useHolds(route, focus, all.list);
  useWaitingCount(all.list);
  const several = all.list.length > 1;
  // The home and a seat's conversation say when they are drawn; any other view, or a page whose
  // forges cannot be reached, is drawn as it is now.
  const drawing = route.page === "home" || route.page === "seat" && route.tab === "chat";
  const reached = all.list.some((c) => c.state.link !== "down");
  useEffect(() => {
    if (!drawing || !reached || focus.state.seatError) viewDrawn();
  });
  // One forge: a drop greys the whole page. Several: the home greys each forge's own part,
  // and a page about one forge greys when that forge is down.
  const stale = focus.state.link !== "open" && (!several || route.page !== "home");
  return (
    <ForgeScope value={focus}>
      <div class={`frame${stale ? " stale" : ""}`}>
        <Rail clientBuild={props.clientBuild} route={route} focus={focus} />
        <main data-testid="main">
          <Reach />
          <Secure />
          {stale && <StaleBanner c={focus} />}
          {/* A home of several forges draws each forge's notices in its own part. */}
          {(!several || route.page !== "home") && <Notices />}
          {route.page === "home" && <Home />}
          {route.page === "seat" && <SeatPage tab={route.tab} name={route.seat} />}
          {route.page === "settings" && <SettingsPage />}
          {route.page === "usage" && <UsagePage />}
          {route.page === "board" && <BoardPage />}
          {route.page === "extensions" && <ExtensionsPage />}
          {route.page === "models" && <ModelsPage />}
          {route.page === "forges" && <ForgesPage />}
        </main>
      </div>
    </ForgeScope>
  );
}
