import { PROTOCOL_VERSION } from "../../../../protocol/mod.ts";
import type { Route } from "./app.tsx";
import { Marks, seatName } from "./marks.tsx";
import { skewSentence } from "./skew.ts";
import { useApp } from "./use.ts";

/** The rail: the pages, every seat with its marks, and the footer naming both builds. */
export function Rail(props: { clientBuild: string; route: Route }) {
  const s = useApp();
  const agents = [...s.home?.agents ?? []].sort((a, b) =>
    seatName(a.slot).localeCompare(seatName(b.slot))
  );
  const unseen = s.home?.unseen ?? [];
  const greeting = s.greeting;
  const skew = greeting ? skewSentence(greeting, props.clientBuild) : null;
  const here = props.route.page === "seat" ? props.route.seat : null;
  return (
    <nav class="rail">
      <div class="brand">forge</div>
      <a href="#/" class={props.route.page === "home" ? "on" : ""}>Home</a>
      <a href="#/usage" class={props.route.page === "usage" ? "on" : ""}>
        Usage
      </a>
      <a href="#/board" class={props.route.page === "board" ? "on" : ""}>Board</a>
      <a href="#/extensions" class={props.route.page === "extensions" ? "on" : ""}>Plugins</a>
      <a href="#/models" class={props.route.page === "models" ? "on" : ""}>Models</a>
      <a href="#/settings" class={props.route.page === "settings" ? "on" : ""}>
        Settings
      </a>
      <div class="rail-seats">
        {agents.map((a) => {
          const slot = a.slot;
          const name = seatName(slot);
          return (
            <a
              href={`#/seat/${name}`}
              class={name === here ? "on" : ""}
              data-testid={`rail-${name}`}
              key={name}
            >
              <span>{`${slot.project}/${slot.label}`}</span>
              <Marks agent={a} unseen={unseen} />
            </a>
          );
        })}
      </div>
      <footer class="rail-foot" data-testid="versions">
        <div>client {props.clientBuild} · socket {PROTOCOL_VERSION}</div>
        <div>
          server {greeting?.forge_version_short ?? "?"} · socket {greeting?.version ?? "?"}
        </div>
        <div class={`link ${s.link}`} data-testid="link-state">{s.link}</div>
        {skew && <div class="notice skew" data-testid="skew" role="alert">{skew}</div>}
      </footer>
    </nav>
  );
}
