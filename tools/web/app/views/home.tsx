import { useEffect } from "preact/hooks";
import type { AgentRow, Slot, Wire } from "../../../../protocol/mod.ts";
import type { z } from "zod";
import type { Home as HomeData } from "../net/narrow.ts";
import { accountChip, AccountChips } from "./accounts.tsx";
import { NewTask, ProjectBoard, useBoardBeat } from "./board.tsx";
import { Marks, seatName } from "./marks.tsx";
import { client, useApp } from "./use.ts";

type Agent = z.infer<typeof AgentRow>;
type Project = HomeData["projects"][number];

/**
 * Home: every project with its seats and their marks (a lead's workers under it), the account
 * chips and the fleet at a glance; a project whose lead sleeps offers Start. spec: What a subject
 * carries > home.
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
  return (
    <div class="home" data-testid="home">
      <header class="page-head">
        <h1>Fleet</h1>
        <UsageGlance usage={s.usage} />
        <AccountChips pool={home.accounts} />
      </header>
      {home.fatal_error ? <div class="notice">{home.fatal_error}</div> : null}
      {home.projects.map((p) => <ProjectRow project={p} home={home} key={p.project.key} />)}
    </div>
  );
}

function ProjectRow(props: { project: Project; home: HomeData }) {
  const { project: p, home } = props;
  const id = p.project;
  const mine = home.agents.filter((a) => a.slot.project === id.name && a.slot.org === id.org);
  const lead = mine.find((a) => a.slot.label === "lead");
  const workers = mine.filter((a) => a.slot.label !== "lead");
  const glance = home.fleet.find((f) => f.project === id.name);
  const chip = p.chip ? accountChip(home.accounts, id.org, p.chip.account_name) : null;
  return (
    <section class="project" data-testid={`project-${id.name}`}>
      <h2>
        {id.name}
        <span class="muted">{id.org}</span>
        {p.work.branch ? <span class="branch">⎇ {p.work.branch}</span> : null}
        {glance && <span class="muted">· {glance.live}/{glance.cap} live</span>}
        {p.chip && chip && (
          <span class={`chip account ${chip.state}`} title={chip.detail} data-testid="project-chip">
            {p.chip.account_name} · {chip.words}
          </span>
        )}
      </h2>
      <ul class="seats">
        {lead && <SeatRow agent={lead} unseen={home.unseen} />}
        {workers.length > 0 && (
          <li class="worker-rows">
            <ul class="seats workers-of" data-testid={`workers-of-${id.name}`}>
              {workers.map((a) => (
                <SeatRow agent={a} unseen={home.unseen} key={seatName(a.slot)} />
              ))}
            </ul>
          </li>
        )}
      </ul>
      <ProjectBoard org={id.org} project={id.name} compact />
      <NewTask project={id.name} />
    </section>
  );
}

function SeatRow(props: { agent: Agent; unseen: Slot[] }) {
  const a = props.agent;
  const slot = a.slot;
  const name = seatName(slot);
  const start = () =>
    client().command("spawn_project", { project_name: slot.project, launch_settings: {} });
  return (
    <li class="seat-row" data-testid={`seat-${name}`}>
      <a href={`#/seat/${name}`}>{slot.label}</a>
      <Marks agent={a} unseen={props.unseen} />
      {a.tree && <span class="muted">{a.tree}</span>}
      {a.reason ? <span class="reason">{a.reason}</span> : null}
      {a.lifecycle === "Sleeping" && slot.label === "lead" && (
        <button type="button" onClick={start} data-testid={`start-${slot.project}`}>
          Start lead
        </button>
      )}
    </li>
  );
}

const TOKEN_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_tokens",
  "cache_read_tokens",
];

/** Usage at a glance: today's and this week's totals from the usage subject. */
function UsageGlance(props: { usage: Record<string, Wire> | null }) {
  const usage = props.usage;
  if (!usage) return null;
  const line = (name: string) => {
    const window = usage[name];
    const total = typeof window === "object" && window !== null && !Array.isArray(window)
      ? window.total
      : null;
    if (typeof total !== "object" || total === null || Array.isArray(total)) return null;
    const tokens = TOKEN_FIELDS.reduce((n, k) => {
      const v = total[k];
      return n + (typeof v === "number" ? v : 0);
    }, 0);
    const cost = typeof total.cost_usd === "number" ? `$${total.cost_usd.toFixed(2)}` : "";
    return `${name} ${tokens.toLocaleString()} tokens ${cost}`;
  };
  return (
    <a href="#/usage" class="glance muted" data-testid="usage-glance">
      {[line("today"), line("week")].filter(Boolean).join(" · ")}
    </a>
  );
}
