import { useEffect } from "preact/hooks";
import type { Wire } from "../../../../protocol/mod.ts";
import { NewTask, ProjectBoard, useBoardBeat } from "./board.tsx";
import { Marks } from "./marks.tsx";
import { client, useApp } from "./use.ts";

type Obj = Record<string, Wire>;

/**
 * Home: every project with its seats and their marks, the account chips and the fleet at a
 * glance; a project whose lead sleeps offers Start. spec: What a subject carries > home.
 */
export function Home() {
  const s = useApp();
  const home = s.home;
  useBoardBeat();
  // The first-draw bench's mark: the fleet's rows are on screen (an effect runs after paint).
  useEffect(() => {
    if (home && performance.getEntriesByName("forge:home-drawn").length === 0) {
      performance.mark("forge:home-drawn");
    }
  }, [home]);
  if (!home) return <p class="muted">Reading the fleet…</p>;
  const projects = (home.projects ?? []) as Obj[];
  const agents = (home.agents ?? []) as Obj[];
  const unseen = (home.unseen ?? []) as Obj[];
  const fleet = (home.fleet ?? []) as Obj[];
  const accounts = ((home.accounts as Obj)?.loading ?? []) as Obj[];
  return (
    <div class="home" data-testid="home">
      <header class="page-head">
        <h1>Fleet</h1>
        <UsageGlance usage={s.usage} />
        <div class="chips">
          {accounts.map((a) => (
            <span
              class={`chip ${a.state}`}
              key={String(a.display_name)}
              data-testid="account"
            >
              {String(a.display_name)} · {String(a.state)}
            </span>
          ))}
        </div>
      </header>
      {home.fatal_error ? <div class="notice">{JSON.stringify(home.fatal_error)}</div> : null}
      {projects.map((p) => {
        const id = p.project as Obj;
        const mine = agents.filter((a) =>
          (a.slot as Obj).project === id.name && (a.slot as Obj).org === id.org
        );
        const glance = fleet.find((f) => f.project === id.name);
        const slots = glance?.slots as Obj | undefined;
        const work = p.work as Obj | null;
        return (
          <section
            class="project"
            key={String(id.key)}
            data-testid={`project-${id.name}`}
          >
            <h2>
              {String(id.name)}
              <span class="muted">{String(id.org)}</span>
              {work?.branch ? <span class="branch">⎇ {String(work.branch)}</span> : null}
              {slots && (
                <span class="muted">
                  · {String(slots.live)}/{String(slots.cap)} live
                </span>
              )}
            </h2>
            <ul class="seats">
              {mine.map((a) => <SeatRow agent={a} unseen={unseen} key={seatName(a)} />)}
            </ul>
            <ProjectBoard org={String(id.org)} project={String(id.name)} />
            <NewTask project={String(id.name)} />
          </section>
        );
      })}
    </div>
  );
}

function seatName(a: Obj): string {
  const slot = a.slot as Obj;
  return `${slot.org}/${slot.project}/${slot.label}`;
}

function SeatRow(props: { agent: Obj; unseen: Obj[] }) {
  const a = props.agent;
  const slot = a.slot as Obj;
  const name = seatName(a);
  const sleeping = a.lifecycle === "Sleeping";
  const start = () =>
    client().command("spawn_project", {
      project_name: String(slot.project),
      launch_settings: {},
    });
  return (
    <li class="seat-row" data-testid={`seat-${name}`}>
      <a href={`#/seat/${name}`}>{String(slot.label)}</a>
      <Marks agent={a} unseen={props.unseen} />
      {a.reason ? <span class="reason">{String(a.reason)}</span> : null}
      {sleeping && slot.label === "lead" && (
        <button
          type="button"
          onClick={start}
          data-testid={`start-${slot.project}`}
        >
          Start lead
        </button>
      )}
    </li>
  );
}

/** Usage at a glance: today's and this week's totals from the usage subject. */
function UsageGlance(props: { usage: Obj | null }) {
  if (!props.usage) return null;
  const line = (name: string) => {
    const total = ((props.usage![name] ?? {}) as Obj).total as Obj | undefined;
    if (!total) return null;
    const tokens = ["input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens"]
      .reduce((n, k) => n + (typeof total[k] === "number" ? total[k] as number : 0), 0);
    const cost = typeof total.cost_usd === "number" ? `$${total.cost_usd.toFixed(2)}` : "";
    return `${name} ${tokens.toLocaleString()} tokens ${cost}`;
  };
  return (
    <a href="#/usage" class="glance muted" data-testid="usage-glance">
      {[line("today"), line("week")].filter(Boolean).join(" · ")}
    </a>
  );
}
