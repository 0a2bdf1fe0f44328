import { useEffect, useState } from "preact/hooks";
import { PROTOCOL_VERSION } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "../net/client.ts";
import { Marks, seatName } from "./marks.tsx";
import type { Route } from "./route.ts";
import { skewSentence } from "./skew.ts";
import { pageHref, useForges } from "./use.ts";
import { seatsWaiting } from "./waiting.ts";

/**
 * The rail: the pages, every seat with its marks (grouped by forge when the page holds several),
 * and the footer naming both builds. On a phone it folds to a bar with a menu button; a choice
 * folds it again.
 */
export function Rail(props: { clientBuild: string; route: Route; focus: ForgeClient }) {
  const all = useForges();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const fold = () => setOpen(false);
    addEventListener("hashchange", fold);
    return () => removeEventListener("hashchange", fold);
  }, []);
  const { route, focus } = props;
  const s = focus.state;
  const greeting = s.greeting;
  const skew = greeting ? skewSentence(greeting, props.clientBuild) : null;
  const here = route.page === "seat" ? route.seat : null;
  const several = all.list.length > 1;
  const waiting = seatsWaiting(all.list);
  const link = (page: Route["page"], label: string, path = page) => (
    <a href={pageHref(focus, path)} class={route.page === page ? "on" : ""}>{label}</a>
  );
  return (
    <nav class={`rail${open ? " open" : ""}`}>
      <div class="rail-bar">
        <div class="brand">forge</div>
        {waiting > 0 && (
          // Seats, said as such: a seat's dock beside it counts asks ("2 asks wait on you").
          <a href="#/" class="rail-waiting" data-testid="rail-waiting">
            {waiting === 1 ? "1 seat waits on you" : `${waiting} seats wait on you`}
          </a>
        )}
        <button
          type="button"
          class="rail-toggle"
          data-testid="menu"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? "Close" : "Menu"}
        </button>
      </div>
      <div class="rail-body">
        <a href="#/" class={route.page === "home" ? "on" : ""}>Home</a>
        {link("usage", "Usage")}
        {link("board", "Board")}
        {link("extensions", "Plugins")}
        {link("models", "Models")}
        {link("settings", "Settings")}
        <a href="#/forges" class={route.page === "forges" ? "on" : ""}>Forges</a>
        <div class="rail-seats">
          {all.list.map((c) => (
            <RailGroup
              c={c}
              here={c === focus ? here : null}
              named={several}
              key={c.host}
            />
          ))}
        </div>
        <footer class="rail-foot" data-testid="versions">
          <div>client {props.clientBuild} · socket {PROTOCOL_VERSION}</div>
          <div>
            server {greeting?.forge_version_short ?? "?"} · socket {greeting?.version ?? "?"}
          </div>
          <div class={`link ${s.link}`} data-testid="link-state">{s.link}</div>
          {skew && <div class="notice skew" data-testid="skew" role="alert">{skew}</div>}
        </footer>
      </div>
    </nav>
  );
}

/** One forge's seats; with several forges, under its host and its link's state. */
function RailGroup(props: { c: ForgeClient; here: string | null; named: boolean }) {
  const { c } = props;
  const s = c.state;
  const agents = [...s.home?.agents ?? []].sort((a, b) =>
    seatName(a.slot).localeCompare(seatName(b.slot))
  );
  const unseen = s.home?.unseen ?? [];
  const rows = agents.map((a) => {
    const name = seatName(a.slot);
    return (
      <a
        href={pageHref(c, `seat/${name}`)}
        class={name === props.here ? "on" : ""}
        data-testid={`rail-${name}`}
        key={name}
      >
        <span>{`${a.slot.project}/${a.slot.label}`}</span>
        <Marks agent={a} unseen={unseen} />
      </a>
    );
  });
  if (!props.named) return <>{rows}</>;
  return (
    <div
      class={`rail-group${s.link === "open" ? "" : " stale"}`}
      data-testid={`rail-forge-${c.host}`}
    >
      <div class="rail-forge">
        <span>{c.host}</span>
        <span class={`link ${s.link}`} data-testid="forge-link">{s.link}</span>
      </div>
      {rows}
    </div>
  );
}
