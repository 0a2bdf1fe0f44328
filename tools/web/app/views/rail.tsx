import { PROTOCOL_VERSION, type Wire } from "../../../../protocol/mod.ts";
import type { Route } from "./app.tsx";
import { Marks } from "./marks.tsx";
import { skewSentence } from "./skew.ts";
import { useApp } from "./use.ts";

type Obj = Record<string, Wire>;

/** The rail: the pages, every seat with its marks, and the footer naming both builds. */
export function Rail(props: { clientBuild: string; route: Route }) {
  const s = useApp();
  const name = (a: Obj) => {
    const slot = a.slot as Obj;
    return `${slot.org}/${slot.project}/${slot.label}`;
  };
  const agents = [...(s.home?.agents ?? []) as Obj[]].sort((a, b) =>
    name(a).localeCompare(name(b))
  );
  const unseen = (s.home?.unseen ?? []) as Obj[];
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
      <a href="#/settings" class={props.route.page === "settings" ? "on" : ""}>
        Settings
      </a>
      <div class="rail-seats">
        {agents.map((a) => {
          const slot = a.slot as Obj;
          const name = `${slot.org}/${slot.project}/${slot.label}`;
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
