import type { CronEntry } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { Lock } from "../lock.ts";
import type { KeptFile, KeptRead, StateKeeper } from "../state/keeper.ts";
import {
  type CronFile,
  type Fired,
  type FiredFile,
  parseCronFile,
  parseFiredFile,
} from "./cron_file.ts";
import { Parking } from "./cron_parking.ts";
import { type TickClock, TickTimer } from "./cron_timer.ts";
import { type CronDeliver, WaitingFires } from "./cron_waiting.ts";
import { missedPreface, stateWords } from "./cron_words.ts";
import { afterFire, cronName, nextAfter, parseSchedule } from "./schedule.ts";
import { BoardError } from "./tasks.ts";

/** A fire later than this past its time while forge runs is a missed one: the turn says so. */
export const MISSED_GRACE_MS = 60_000;
/** A fire that could not be delivered is tried again after this, doubling up to RETRY_MS. */
export const FIRST_RETRY_MS = 5_000;
/** The longest wait before a fire that could not be delivered is tried again. */
export const RETRY_MS = 60_000;
/** How many fired prompts keep their schedule's name (for `cron_names`). */
export const FIRED_CAP = 10_000;

export type { CronDeliver } from "./cron_waiting.ts";
export { REAL_CLOCK, type TickClock } from "./cron_timer.ts";

export interface CronInput {
  prompt: string;
  schedule?: string;
  run_once_at?: string;
  description?: string;
}

/**
 * Every project's schedules, persisted with their next fire, and the one tick that fires them.
 * spec: "Not every frame on the stream is the CLI's" (a fire is a delivery, `source: cron`); the
 * original forge's `cron` tool family. The tick fires every entry whose next fire has passed ONCE,
 * however many occurrences passed, then advances it from now; a one-shot is removed once delivered.
 * A fire that fell due while forge was down says so in its turn, however short the outage.
 *
 * Exactly once across a crash: a fire's uuid is written with the occurrence it is for BEFORE it
 * is handed over, and the schedule advances only AFTER the delivery landed. A crash in between
 * leaves the occurrence due with its uuid on record, so the next boot hands the same uuid over
 * with `once`: the lead's transcript is read first and a prompt that already landed is not sent
 * again. Each fired prompt's uuid keeps its schedule's name, so `cron_names` is right after a
 * restart. While either file is damaged (server/state/), nothing fires and nothing changes. A
 * fire stays `waiting` in the fired file from each hand-over until the lead's CLI moves it out of
 * its queue (`started`): a lead mid-turn holds it in memory, so the next boot, or the lead's next
 * CLI after a crash, hands a waiting fire over again (cron_waiting.ts).
 *
 * One schedule never stops the others, nor spins the tick: a fire that throws parks its schedule
 * (logged once, its `last_error` says so) until the schedule changes; an advance that cannot be
 * saved is tried again after RETRY_MS (cron_parking.ts); the timer never spins and a tick that
 * fails is logged once while it fails the same way (cron_timer.ts).
 */
export class Crons {
  entries: CronEntry[] = [];
  readonly fired = new Map<string, Fired>();
  readonly #inflight = new Set<string>();
  readonly #parked = new Parking();
  /** Failed deliveries in a row per schedule: the next retry waits twice as long. */
  readonly #failures = new Map<string, number>();
  #lock = new Lock();
  readonly #timer: TickTimer;
  readonly #upSince: number;
  /** Whether this run handed over the fires a restart left waiting (its first tick does). */
  #handedAgain = false;
  readonly #waiting: WaitingFires;

  private constructor(
    private readonly file: KeptFile<CronFile>,
    private readonly firedFile: KeptFile<FiredFile>,
    private readonly o: {
      clock: TickClock;
      deliver: CronDeliver;
      changed: (org: string, project: string) => void;
      log: Logger;
    },
  ) {
    this.#upSince = o.clock.upSince?.() ?? o.clock.now();
    this.#waiting = new WaitingFires(this.fired, o.deliver, o.log);
    this.#timer = new TickTimer(o.clock, o.log, () => this.tick());
  }

  static async open(keeper: StateKeeper, stateDir: string, o: Crons["o"]): Promise<Crons> {
    const file = keeper.file(`${stateDir}/board/cron.json`, {
      area: "the schedules",
      parse: parseCronFile,
    });
    const firedFile = keeper.file(`${stateDir}/board/cron_fired.json`, {
      area: "the schedules",
      parse: parseFiredFile,
    });
    const crons = new Crons(file, firedFile, o);
    crons.#adopt(await file.read(), await firedFile.read());
    return crons;
  }

  /** Why the schedules cannot change or fire (a damaged file); null when they can. */
  get error(): string | null {
    return this.file.damage ?? this.firedFile.damage;
  }

  #adopt(
    read: KeptRead<CronFile> | null,
    fired: KeptRead<FiredFile> | null,
  ): void {
    if (read && read.state !== "damaged") {
      this.entries = read.state === "read" ? read.value.crons : [];
    }
    if (fired && fired.state !== "damaged") {
      this.fired.clear();
      for (const f of fired.state === "read" ? fired.value.fired : []) this.fired.set(f.uuid, f);
    }
  }

  /** Before a change or a fire: a file mended or changed on disk is read back; a damaged one
   * refuses. */
  async #writable(): Promise<void> {
    // Each read is taken in as it comes: a refusal of the second must not lose the first.
    this.#adopt(await this.file.writable(), null);
    this.#adopt(null, await this.firedFile.writable());
  }

  /** A project's schedules; a parked one's `last_error` says why it is not fired. */
  list(org: string, project: string): CronEntry[] {
    return this.entries.filter((e) => e.org === org && e.project === project).map((e) => {
      const why = this.#parked.why(e.id);
      return why === undefined ? e : { ...e, last_error: why };
    });
  }

  /** The schedule name a fired prompt came from, by the prompt's uuid. spec: page > cron_names. */
  nameOf(uuid: string): string | undefined {
    return this.fired.get(uuid)?.name;
  }

  async create(org: string, project: string, by: string, input: CronInput): Promise<CronEntry> {
    const prompt = input.prompt?.trim() ?? "";
    if (prompt === "") throw new BoardError("prompt: must not be empty");
    const now = this.o.clock.now();
    const { schedule, next } = parseSchedule(input, now);
    const entry: CronEntry = {
      id: `c-${crypto.randomUUID().slice(0, 8)}`,
      org,
      project,
      schedule,
      prompt,
      description: input.description?.trim() || null,
      created_by: by,
      created_at: new Date(now).toISOString(),
      next_fire: new Date(next).toISOString(),
      last_fired: null,
      last_error: null,
    };
    await this.#change(org, project, (list) => [...list, entry]);
    this.#arm();
    return entry;
  }

  async delete(org: string, project: string, id: string): Promise<CronEntry> {
    const entry = this.list(org, project).find((e) => e.id === id);
    if (!entry) throw new BoardError(`id: no schedule \`${id}\` in ${project}`);
    await this.#change(org, project, (list) => list.filter((e) => e.id !== id));
    this.#arm();
    return entry;
  }

  /**
   * Starts the tick: the first one at once, which is the boot catch-up; resolves after it, and
   * never rejects (a failed tick is logged and looked at again).
   */
  start(): Promise<void> {
    return this.#timer.start();
  }

  /** Resolves once the tick the timer (or start) began last has finished; never rejects. */
  settled(): Promise<void> {
    return this.#timer.settled();
  }

  stop(): Promise<unknown> {
    this.#timer.stop();
    return this.#lock.idle();
  }

  /**
   * Fires every due schedule once; resolves when each fire has been delivered or failed. The
   * next sleep is armed at once, so a slow delivery (a lead waking) never holds back the others.
   */
  async tick(): Promise<void> {
    try {
      // A file mended or changed on disk since it was read is taken in before anything fires.
      await this.#writable();
    } catch {
      // Damaged: nothing fires over a file forge could not read (the error field says so); the
      // tick looks again at its next wake.
      this.#arm();
      return;
    }
    if (!this.#handedAgain) {
      this.#handedAgain = true;
      // One whose occurrence is still due on disk (a crash cut its advance) fires below, once.
      const due = (f: Fired) =>
        this.entries.some((e) => e.id === f.cron_id && e.next_fire === f.due);
      const left = [...this.fired.values()].filter((f) => !due(f));
      if (await this.#waiting.again(left)) await this.#saveFired("boot");
    }
    // Read after the file: what fell due while it was read fires now, not a sleep later.
    const now = this.o.clock.now();
    for (const id of this.#parked.releaseChanged(this.entries)) {
      this.o.log.info("cron_unparked", { cron: id });
    }
    for (const e of this.entries) {
      // Only memory could hold one (the file's parse refuses it): never due, so said once here.
      if (Number.isNaN(this.#parked.wakeAt(e))) {
        this.#cannotFire(e, new BoardError(`its next_fire \`${e.next_fire}\` is not a date`));
      }
    }
    const due = this.entries.filter((e) =>
      !this.#inflight.has(e.id) && this.#parked.wakeAt(e) <= now
    );
    const fires = due.map((e) => this.#fire(e, now));
    this.#arm();
    await Promise.all(fires);
    this.#arm();
  }

  /** One schedule's fire; whatever it throws parks that schedule alone, logged once. */
  async #fire(e: CronEntry, now: number): Promise<void> {
    this.#inflight.add(e.id);
    try {
      await this.#fireOnce(e, now);
    } catch (error) {
      this.#cannotFire(e, error);
    } finally {
      this.#inflight.delete(e.id);
    }
  }

  /** Parks a schedule whose fire threw until it changes: logged once, said on the entry. */
  #cannotFire(e: CronEntry, error: unknown): void {
    // forge's own words go on the entry; anything else is named by its log record.
    const what = error instanceof BoardError
      ? `forge cannot fire it: ${error.message}`
      : "forge could not fire it (logged as cron_fire_failed)";
    this.o.log.error("cron_fire_failed", { cron: e.id, project: e.project, error });
    this.#parked.park(e, `${what}; it waits until it is changed or deleted, or forge restarts`);
    this.o.changed(e.org, e.project);
  }

  async #fireOnce(e: CronEntry, now: number): Promise<void> {
    const dueAt = Date.parse(e.next_fire);
    // The schedule is read before anything is handed over: one forge cannot advance is parked
    // before its prompt goes, not after.
    nextAfter(e.schedule, now);
    // spec: a fire that fell due while forge was down says so, however short the outage.
    const down = dueAt < this.#upSince;
    const late = down || now - dueAt > MISSED_GRACE_MS;
    const text = late ? missedPreface(e, dueAt, now, down) + e.prompt : e.prompt;
    const begun = [...this.fired.values()].find((f) => f.cron_id === e.id && f.due === e.next_fire);
    const uuid = begun?.uuid ?? crypto.randomUUID();
    if (!begun?.waiting) {
      this.#remember(uuid, e, text);
      await this.#saveFired(e.id);
    }
    let failed: string | null = null;
    try {
      const outcome = await this.o.deliver({ ...e, name: cronName(e) }, text, uuid, !!begun);
      if (this.#waiting.handed(uuid, e, outcome)) await this.#saveFired(e.id);
      this.#failures.delete(e.id);
      this.o.log.info("cron_fired", {
        cron: e.id,
        project: e.project,
        uuid,
        late_ms: this.o.clock.now() - dueAt,
        missed: late,
      });
    } catch (err) {
      failed = (err as Error).message ?? String(err);
      this.o.log.warn("cron_fire_undelivered", { cron: e.id, project: e.project, why: failed });
    }
    const tries = this.#failures.get(e.id) ?? 0;
    if (failed !== null) this.#failures.set(e.id, tries + 1);
    const retry = Math.min(RETRY_MS, FIRST_RETRY_MS * 2 ** tries);
    try {
      await this.#change(
        e.org,
        e.project,
        (list) => list.flatMap((x) => x.id === e.id ? afterFire(x, now, failed, retry) : [x]),
      );
      this.#parked.release(e.id);
    } catch (error) {
      // Still due on disk: fired again at once, it would spin. The next try is a while off,
      // and hands the same uuid over with `once`, so a delivered prompt is not sent twice.
      this.o.log.warn("cron_advance_failed", { cron: e.id, error });
      const words = error instanceof BoardError ? error.message : "forge could not save it";
      const at = this.o.clock.now() + RETRY_MS;
      const when = new Date(at).toISOString();
      this.#parked.park(
        e,
        `its next fire could not be saved (${words}); tried again at ${when}`,
        at,
      );
      this.o.changed(e.org, e.project);
    }
  }

  #remember(uuid: string, e: CronEntry, text: string): void {
    this.fired.set(uuid, {
      uuid,
      cron_id: e.id,
      name: cronName(e),
      due: e.next_fire,
      waiting: { org: e.org, project: e.project, description: e.description, text },
    });
    while (this.fired.size > FIRED_CAP) this.fired.delete(this.fired.keys().next().value!);
  }

  /**
   * A prompt's lifecycle moved in its lead's CLI (spec: prompt_lifecycle): a fire that was
   * waiting in the CLI's queue left it - started, or cancelled by a person - and a restart no
   * longer hands it over again.
   */
  async promptMoved(uuid: string, state: string): Promise<void> {
    if (state === "queued" || !this.#waiting.moved(uuid)) return;
    await this.#saveFired(this.fired.get(uuid)!.cron_id);
  }

  /** A project's lead has a new CLI (spec: connected, session_replaced): the fires its last one
   * held unstarted are handed to it (cron_waiting.ts). Never rejects. */
  async leadUp(org: string, project: string): Promise<void> {
    const held = this.#waiting.heldBy({ org, project });
    if (held.length > 0 && await this.#waiting.again(held)) await this.#saveFired("lead_up");
  }

  /** Writes the fired prompts; the keeper refuses a file that is damaged or moved, logged. */
  #saveFired(cron: string): Promise<void> {
    return this.firedFile.write({ version: 1, fired: this.#firedList() }).catch((error) =>
      this.o.log.warn("cron_fired_unwritable", { cron, error })
    );
  }

  #firedList(): Fired[] {
    return [...this.fired.values()];
  }

  /** One change to one project's schedules at a time: written, then announced; else undone. */
  #change(org: string, project: string, fn: (list: CronEntry[]) => CronEntry[]): Promise<void> {
    return this.#lock.run(async () => {
      try {
        await this.#writable();
      } catch (err) {
        throw new BoardError(`the schedules cannot be changed: ${stateWords(err, this.o.log)}`);
      }
      const before = this.entries;
      const mine = (e: CronEntry) => e.org === org && e.project === project;
      this.entries = [...before.filter((e) => !mine(e)), ...fn(before.filter(mine))];
      try {
        await this.file.write({ version: 1, crons: this.entries });
      } catch (err) {
        this.entries = before;
        throw new BoardError(`the schedules could not be saved: ${stateWords(err, this.o.log)}`);
      }
      this.o.changed(org, project);
    });
  }

  /**
   * Sleeps until the earliest fire, in chunks of at most MAX_SLEEP_MS and never less than
   * MIN_SLEEP_MS for one already due. A damaged file is looked at again each chunk, so a mended
   * one fires without waiting for a change.
   */
  #arm(): void {
    if (this.error !== null) return this.#timer.wakeLater();
    const waiting = this.entries.filter((e) => !this.#inflight.has(e.id));
    this.#timer.wakeAt(waiting.map((e) => this.#parked.wakeAt(e)));
  }
}
