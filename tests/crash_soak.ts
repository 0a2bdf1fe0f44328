/**
 * Test support: the crash soak. forge runs as a person runs it (`deno task start`), its lead on
 * the real claude CLI against the fake Messages API, and is killed with SIGKILL at a random
 * moment of a random piece of work - mid-turn, mid-write of a store (a task, a review thread,
 * the config), mid-worker-spawn or despawn, mid-fire of a schedule, or idle - then started
 * again. During each outage a one-shot schedule falls due. After every restart the checks of
 * tests/crash_soak_checks.ts run: each seat's history (the lead's and every live worker's)
 * against its transcript, the board, the schedules, the subscriptions and the workers as they
 * were, no orphan CLI, worktree or temp file, and the outage's schedule fired exactly once. The
 * test (20 kills) and the bench (tools/bench/crash_soak.ts, 200) share it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { slotName } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import {
  firePrompt,
  historyMatches,
  orphans,
  promptTexts,
  temps,
  transcriptPrompts,
  workersHold,
} from "./crash_soak_checks.ts";
import { act } from "./crash_soak_actions.ts";
import { seedWorld, writeJson } from "./crash_soak_world.ts";
import { type RunningForge, type SeatWorld, seatWorld, subscribeSeat } from "./seats_harness.ts";
import { rng } from "./tool_fuzz.ts";

const SCRIPT = new URL("../fixtures/soak/script.json", import.meta.url).pathname;
// A worker costs a CLI start at every boot it lives through: spawned now and then, and despawned
// more often than spawned, so most restarts carry one CLI or two.
const ACTIONS = [
  "turn",
  "turn",
  "task",
  "settings",
  "review",
  "spawn",
  "despawn",
  "despawn",
  "fire",
  "idle",
];
type Msg = Record<string, unknown>;

export interface SoakReport {
  kills: number;
  /** Transcript rows compared against forge's history, every seat's, over every restart. */
  turnsChecked: number;
  /** Worker histories compared (a worker's transcript held rows), over every restart. */
  workersChecked: number;
  /** Outage schedules seen to fire exactly once. */
  firesChecked: number;
  /**
   * Per outage fire: from `LISTENING` to the prompt in the lead's transcript (`fireMs`); to
   * forge's own `cron_fired` record, the prompt handed to the woken lead (`handedMs`, from the
   * log's clock); and that boot's own time to `LISTENING` (`fireBootMs`), the machine's load.
   */
  fireMs: number[];
  handedMs: number[];
  fireBootMs: number[];
  /** Per outage fire, when the caller measured one beside it (`beside`): that floor's figure. */
  besideMs: number[];
  /** From the start command to `LISTENING`. */
  bootMs: number[];
  actions: Record<string, number>;
  problems: string[];
}

/**
 * Runs the soak. `beside`, when given, is called once after each outage fire is seen, in the
 * same boot, with the fake API's address: the bench times a floor there (`besideMs`).
 */
export async function crashSoak(
  o: {
    kills: number;
    seed: number;
    say?: (line: string) => void;
    beside?: (apiUrl: string) => Promise<number>;
  },
): Promise<SoakReport> {
  const world = await seatWorld([{ name: "alpha", autoStart: true }], SCRIPT);
  try {
    return await new Soak(world, o).run();
  } finally {
    await world.dispose();
  }
}

class Soak {
  readonly report: SoakReport;
  readonly r;
  readonly lead;
  readonly state: string;
  forge: RunningForge | null = null;
  c: ForgeClient | null = null;
  tasks: string[] = [];
  taskInFlight: string | null = null;
  /** The outage fires not yet seen, by their unique words. */
  fires: string[] = [];
  fired: string[] = [];
  subscriptions = "";
  listeningAt = 0;
  /** A moment no forge ran (after the seeding, after each kill): a temp file older is a leftover. */
  downAt = 0;

  constructor(readonly world: SeatWorld, readonly o: Parameters<typeof crashSoak>[0]) {
    this.r = rng(o.seed);
    this.lead = world.lead("alpha");
    this.state = `${world.dir}/forge/state`;
    this.report = {
      kills: 0,
      turnsChecked: 0,
      workersChecked: 0,
      firesChecked: 0,
      fireMs: [],
      handedMs: [],
      fireBootMs: [],
      besideMs: [],
      bootMs: [],
      actions: {},
      problems: [],
    };
  }

  async run(): Promise<SoakReport> {
    await this.seed();
    for (let k = 0; k < this.o.kills; k++) {
      const action = this.r.pick(ACTIONS);
      this.report.actions[action] = (this.report.actions[action] ?? 0) + 1;
      await this.boot();
      if (action === "fire" && this.fires.length > 0) {
        // Mid-fire: the boot's catch-up is under way; kill it somewhere inside.
        await sleep(this.r.int(1500));
      } else {
        await this.settle(k);
        await act(this, action, k);
      }
      await this.kill(k, action);
    }
    await this.boot();
    await this.settle(this.o.kills);
    await this.forge!.stop();
    this.problem("after a clean stop", orphans(this.world.dir, null));
    this.problem("after a clean stop", temps(`${this.world.dir}/forge`, Date.now()));
    return this.report;
  }

  /** A project that is a git repo, a schedule that never falls due, one subscription. */
  async seed(): Promise<void> {
    this.subscriptions = await seedWorld(this.world, this.state);
    this.downAt = Date.now();
  }

  async boot(): Promise<void> {
    const t0 = performance.now();
    this.forge = await this.world.startForge();
    this.listeningAt = performance.now();
    this.report.bootMs.push(this.listeningAt - t0);
    this.o.say?.(`  boot ${((this.listeningAt - t0) / 1000).toFixed(1)} s`);
  }

  /** Waits for the boot's work to land, then checks everything a restart must hold. */
  async settle(k: number): Promise<void> {
    const at = `restart ${k}`;
    const t0 = performance.now();
    const lap = (what: string) =>
      this.o.say?.(`  ${what} at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const c = this.c = await this.forge!.ready();
    await subscribeSeat(c, this.lead, true);
    lap("lead connected");
    // The outage's fire: in the lead's transcript once (the CLI's own record of the turn), heard
    // by the fake API at most once (a kill mid-turn may end it before the model is asked), and
    // saying it was missed.
    const projects = `${this.world.dir}/claude/projects`;
    for (const words of this.fires) {
      const deadline = Date.now() + 60_000;
      while (await transcriptPrompts(projects, words) === 0) {
        if (Date.now() > deadline) {
          this.problem(at, [`the outage's schedule "${words}" did not fire`]);
          break;
        }
        await sleep(50);
      }
      this.report.fireMs.push(performance.now() - this.listeningAt);
      this.report.fireBootMs.push(this.report.bootMs.at(-1)!);
      const handed = await handedAfterListening(`${this.world.dir}/forge/forge.log`);
      if (handed !== null) this.report.handedMs.push(handed);
      if (this.o.beside) this.report.besideMs.push(await this.o.beside(this.world.apiUrl));
      this.fired.push(words);
    }
    this.fires = [];
    for (const words of this.fired) {
      const written = await transcriptPrompts(projects, words);
      const prompts = promptTexts(await this.world.apiRequests(), words);
      if (written !== 1 || prompts.length > 1) {
        this.problem(at, [`"${words}" fired ${written} times (the model asked ${prompts.length})`]);
      }
      const text = await firePrompt(projects, words);
      // spec: a fire that fell due while forge was down says so, however short the outage.
      if (!/^\[missed cron c-[0-9a-f]{8}\] .* while forge was not running/.test(text)) {
        this.problem(at, [`"${words}" did not say it was missed: ${text.slice(0, 160)}`]);
      }
      this.report.firesChecked++;
    }
    this.fired = [];
    lap("fires checked");
    await this.waitForWorkers();
    lap("workers up");
    const pid = this.forge!.serverPid();
    this.problem(at, orphans(this.world.dir, pid));
    this.problem(at, temps(`${this.world.dir}/forge`, this.downAt));
    this.problem(at, workersHold(this.state, pid).problems);
    await this.checkHistories(c, at, pid);
    // The board, the schedules and the subscriptions as they were.
    c.send({ kind: "subscribe", what: "board" });
    const board = await c.next((m) => m.kind === "snapshot" && m.subject === "board");
    const p = (board.data as { projects: Msg[] }).projects[0];
    const subjects = (p.rows as { task: { subject: string } }[]).map((x) => x.task.subject);
    const missing = this.tasks.filter((t) => !subjects.includes(t));
    const extra = subjects.filter((t) => !this.tasks.includes(t) && t !== this.taskInFlight);
    if (missing.length || extra.length) {
      this.problem(at, [`the board lost ${missing} or gained ${extra}`]);
    }
    this.tasks = subjects;
    this.taskInFlight = null;
    const crons = (p.crons as { id: string }[]).map((x) => x.id);
    if (JSON.stringify(crons) !== JSON.stringify(["c-5eed0000"])) {
      this.problem(at, [`the schedules are ${crons.join(", ")}`]);
    }
    const subs = await Deno.readTextFile(`${this.state}/connectors/subscriptions.json`);
    if (subs !== this.subscriptions) this.problem(at, ["the subscriptions moved"]);
    lap("checked");
    c.send({ kind: "unsubscribe", what: "board" });
  }

  /**
   * Every seat the soak drives - the lead and each live worker whose CLI runs - its history
   * against the CLI's transcript of its session. A seat whose newest rows forge has yet to show
   * (a turn still running) is asked again until it catches up or a minute passes.
   */
  async checkHistories(c: ForgeClient, at: string, pid: number): Promise<void> {
    const book = JSON.parse(await Deno.readTextFile(`${this.state}/seats/sessions.json`));
    const workers = workersHold(this.state, pid).running.map((label) => ({ ...this.lead, label }));
    for (const slot of [this.lead, ...workers]) {
      const rec = book[slotName(slot)];
      if (!rec) continue; // no session began there: no transcript to hold it against
      const deadline = Date.now() + 60_000;
      let h = await historyMatches(c, slot, rec.transcript);
      while (h.behind && Date.now() < deadline) {
        await sleep(100);
        h = await historyMatches(c, slot, rec.transcript);
      }
      this.problem(`${at}, ${slotName(slot)}`, h.problems);
      this.report.turnsChecked += h.rows;
      if (slot !== this.lead && h.rows > 0) this.report.workersChecked++;
    }
  }

  /** SIGKILL to the server process; during the outage a one-shot schedule falls due. */
  async kill(k: number, action: string): Promise<void> {
    Deno.kill(this.forge!.serverPid(), "SIGKILL");
    await this.forge!.stop();
    this.downAt = Date.now();
    this.report.kills++;
    this.o.say?.(`kill ${k + 1}/${this.o.kills} (${action})`);
    if (this.fires.length > 0) return; // a fire cut short is still due: it must fire next boot
    const words = `soak fire ${k} ${crypto.randomUUID().slice(0, 8)}`;
    const file = `${this.state}/board/cron.json`;
    const stored = JSON.parse(await Deno.readTextFile(file));
    stored.crons.push({
      id: `c-${crypto.randomUUID().slice(0, 8)}`,
      org: "Acme",
      project: "alpha",
      schedule: { once_at: new Date(Date.now() + 50).toISOString() },
      prompt: words,
      description: null,
      created_by: "lead",
      created_at: new Date().toISOString(),
      next_fire: new Date(Date.now() + 50).toISOString(),
      last_fired: null,
      last_error: null,
    });
    await writeJson(file, stored);
    this.fires.push(words);
    await sleep(100); // it falls due while forge is down
  }

  async waitForWorkers(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (workersHold(this.state, this.forge!.serverPid()).problems.length > 0) {
      if (Date.now() > deadline) return; // the checks after this name what never came up
      await sleep(200);
    }
  }

  problem(at: string, found: string[]): void {
    for (const p of found) this.report.problems.push(`${at}: ${p}`);
  }
}

/** From this boot's `server_listening` record to the `cron_fired` after it, on the log's clock. */
async function handedAfterListening(log: string): Promise<number | null> {
  const records = (await Deno.readTextFile(log)).split("\n").flatMap((l) => {
    try {
      return [JSON.parse(l) as { at: string; event: string }];
    } catch {
      return []; // a line still being written
    }
  });
  const up = records.findLastIndex((r) => r.event === "server_listening");
  const fired = records.slice(up).find((r) => r.event === "cron_fired");
  return up < 0 || !fired ? null : Date.parse(fired.at) - Date.parse(records[up].at);
}
