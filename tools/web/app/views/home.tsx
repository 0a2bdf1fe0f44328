import { useEffect } from "preact/hooks";
import type { AgentRow, Slot } from "../../../../protocol/mod.ts";
import type { z } from "zod";
import type { Home as HomeData } from "../net/narrow.ts";
import { viewDrawn } from "../pwa/shell.ts";
import { accountChip, AccountChips } from "./accounts.tsx";
import { NewTask, ProjectBoard, useBoardBeat } from "./board.tsx";
import { Marks, seatName } from "./marks.tsx";
import { Notices } from "./notices.tsx";
import { cliWords, serviceWords } from "./home_news.ts";
import { startControl } from "../model/seat_controls.ts";
import { StaleBanner } from "./reach.tsx";
import { Totals, UsageGlance } from "./totals.tsx";
import { liveWords, type ProjectGlance, projectGlance } from "./project_glance.ts";
import { forges, ForgeScope, pageHref, useApp, useForge, useForges } from "./use.ts";
import { Said } from "../draw/said.tsx";

type Agent = z.infer<typeof AgentRow>;
type Project = HomeData["projects"][number];

/**
 * Home: every project with its seats and their marks (a lead's workers under it), the account
 * chips and the fleet at a glance; a project whose lead sleeps offers Start. With several forges
 * each has its own part under its host, drawn down and stale while it is unreachable, and the
 * header's totals add up every forge's. spec: What a subject carries > home.
 */
export function Home() {
  const all = useForges();
  // The first-draw bench's mark: the fleet's rows are on screen (an effect runs after paint).
  const drawn = all.list.some((c) => c.state.home !== null);
  useEffect(() => {
    if (drawn && performance.getEntriesByName("forge:home-drawn").length === 0) {
      performance.mark("forge:home-drawn");
      viewDrawn();
    }
  }, [drawn]);
  if (all.list.length === 1) {
    return (
      <ForgeScope value={all.list[0]}>
        <OneForge />
      </ForgeScope>
    );
  }
  return (
    <div class="home" data-testid="home">
      <header class="page-head">
        <h1>Fleet</h1>
        <Totals list={all.list} />
      </header>
      {all.list.map((c) => (
        <ForgeScope value={c} key={c.host}>
          <ForgeSection />
        </ForgeScope>
      ))}
    </div>
  );
}

/** The home of a page that holds one forge. */
function OneForge() {
  const s = useApp();
  const home = s.home;
  useBoardBeat();
  // Not yet open (or dropped before the first home): the banner above says so; no fleet is read.
  if (!home) return s.link === "open" ? <p class="muted">Reading the fleet…</p> : null;
  return (
    <div class="home" data-testid="home">
      <header class="page-head">
        <h1>Fleet</h1>
        <UsageGlance usage={s.usage} />
        <AccountChips pool={home.accounts} />
      </header>
      {home.fatal_error
        ? (
          <div class="notice" data-testid="fatal-error">
            <Said text={home.fatal_error} />
          </div>
        )
        : null}
      <HomeNews home={home} />
      {home.projects.map((p) => <ProjectRow project={p} home={home} key={p.project.key} />)}
    </div>
  );
}

/** One forge's part of a home that holds several: its host, its state, then its projects. */
function ForgeSection() {
  const c = useForge();
  const s = useApp();
  const home = s.home;
  useBoardBeat();
  const down = s.link !== "open";
  return (
    <section class={`forge-section${down ? " stale" : ""}`} data-testid={`forge-${c.host}`}>
      <h2 class="forge-head">
        {c.host}
        <span class={`link ${s.link}`} data-testid="forge-link">{s.link}</span>
        {home && <AccountChips pool={home.accounts} />}
      </h2>
      {down && <StaleBanner c={c} />}
      <Notices />
      {!home && !down && <p class="muted">Reading the fleet…</p>}
      {home?.fatal_error
        ? (
          <div class="notice" data-testid="fatal-error">
            <Said text={home.fatal_error} />
          </div>
        )
        : null}
      {home && <HomeNews home={home} />}
      <div class="forge-rows">
        {home?.projects.map((p) => <ProjectRow project={p} home={home} key={p.project.key} />)}
      </div>
    </section>
  );
}

/** A forge's news beside its fleet: the status page's outage and a newer claude. */
function HomeNews(props: { home: HomeData }) {
  const outage = serviceWords(props.home);
  const cli = cliWords(props.home);
  return (
    <>
      {outage && (
        <div class="banner" role="status" data-testid="service-status">
          <Said text={outage} />
        </div>
      )}
      {cli && (
        <div class="notice" data-testid="cli-version">
          <Said text={cli} />
        </div>
      )}
    </>
  );
}

function ProjectRow(props: { project: Project; home: HomeData }) {
  const { project: p, home } = props;
  const id = p.project;
  const mine = home.agents.filter((a) => a.slot.project === id.name && a.slot.org === id.org);
  const lead = mine.find((a) => a.slot.label === "lead");
  const workers = mine.filter((a) => a.slot.label !== "lead");
  const glance = home.fleet.find((f) => f.project === id.name);
  const usage = useApp().usage;
  const chip = p.chip ? accountChip(home.accounts, id.org, p.chip.account_name) : null;
  return (
    <section class="project" data-testid={`project-${id.name}`}>
      <h2>
        {id.name}
        <span class="muted">{id.org}</span>
        {p.work.branch ? <span class="branch">⎇ {p.work.branch}</span> : null}
        {glance && <span class="muted" data-testid="project-live">· {liveWords(glance)}</span>}
        {p.chip && chip && (
          <span class={`chip account ${chip.state}`} title={chip.detail} data-testid="project-chip">
            {p.chip.account_name} · {chip.words}
          </span>
        )}
      </h2>
      <GlanceLine
        glance={projectGlance({
          project: p,
          agents: mine,
          fleet: glance,
          usage,
          now: Date.now(),
        })}
      />
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

/** The project's summary under its name: one short item per fact, wrapping on a phone. */
function GlanceLine(props: { glance: ProjectGlance }) {
  const parts = Object.entries(props.glance).filter(([, words]) => words !== null);
  if (parts.length === 0) return null;
  return (
    <ul class="project-glance" data-testid="project-glance">
      {parts.map(([part, words]) => (
        <li class={`glance-${part}`} data-testid={`glance-${part}`} key={part}>{words}</li>
      ))}
    </ul>
  );
}

function SeatRow(props: { agent: Agent; unseen: Slot[] }) {
  const a = props.agent;
  const slot = a.slot;
  const name = seatName(slot);
  const c = useForge();
  const several = forges().list.length > 1;
  const lead = slot.label === "lead";
  // A sleeping seat starts and a failed one restarts from its row (model/seat_controls.ts).
  const start = a.lifecycle === "Sleeping" || a.lifecycle === "Failed"
    ? startControl(slot, a.lifecycle)
    : null;
  return (
    <li class="seat-row" data-testid={`seat-${name}`}>
      <a href={pageHref(c, `seat/${name}`)}>{slot.label}</a>
      <Marks agent={a} unseen={props.unseen} />
      {several && <span class="forge-host muted" data-testid="row-forge">{c.host}</span>}
      {a.tree && <span class="muted">{a.tree}</span>}
      {a.reason ? <span class="reason">{a.reason}</span> : null}
      {start && (
        <button
          type="button"
          onClick={() => c.send({ kind: "command", command: start.command })}
          data-testid={lead ? `start-${slot.project}` : `start-${name}`}
        >
          {start.label}
          {lead ? " lead" : ""}
        </button>
      )}
    </li>
  );
}
