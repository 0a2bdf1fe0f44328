import type { Clock } from "../clock.ts";
import { z } from "zod";
import { CronEntry } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import { Lock } from "../lock.ts";
import { DurableJson } from "./durable.ts";
import { nextAfter, occurrencesDue, parseSchedule, scheduleText } from "./schedule.ts";
import { BoardError } from "./tasks.ts";

/** A fire later than this past its time is a missed one: the turn says so. */
export const MISSED_GRACE_MS = 60_000;
/** A fire that could not be delivered is tried again this much later. */
export const RETRY_MS = 60_000;
/** The tick never sleeps longer than this, so a clock jump or a suspend is noticed. */
export const MAX_SLEEP_MS = 30_000;
/** How many fired prompts keep their schedule's name (for `cron_names`). */
export const FIRED_CAP = 10_000;

/** The clock and timer the tick runs on (wall time, epoch ms); tests drive their own. */
export type TickClock = Clock;

export const REAL_CLOCK: TickClock = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as number),
};

/** Hands a fire's words to the project's lead; rejects with a sentence when it cannot. */
export type CronDeliver = (entry: CronEntry, text: string, uuid: string) => Promise<void>;

const CronFile = z.object({ version: z.literal(1), crons: z.array(CronEntry) }).strict();
const Fired = z.object({ uuid: z.string(), cron_id: z.string(), name: z.string() }).strict();
const FiredFile = z.object({ version: z.literal(1), fired: z.array(Fired) }).strict();

const schemaParse = <T>(schema: z.ZodType<T>) => (raw: unknown): T => {
  const got = schema.safeParse(raw);
  if (!got.success) throw new Error(`its content is not forge's: ${got.error.issues[0]?.message}`);
  return got.data;
};

export interface CronInput {
  prompt: string;
  schedule?: string;
  run_once_at?: string;
  description?: string;
}

/**
 * Every project's schedules, persisted with their next fire, and the one tick that fires them.
 * spec: "Not every frame on the stream is the CLI's" (a fire is a delivery, `source: cron`);
 * mcp_tools §7. The tick fires every entry whose next fire has passed ONCE, however many
 * occurrences passed (a server that was down says so in the turn), then advances it from now;
 * a one-shot is removed once delivered. A fire is written off only after its delivery landed,
 * so a crash in between fires it again rather than never. Each fired prompt's uuid is kept with
 * its schedule's name, persisted, so `cron_names` is right after a restart.
 */
export class Crons {
  entries: CronEntry[] = [];
  readonly fired = new Map<string, { cron_id: string; name: string }>();
  readonly #inflight = new Set<string>();
  #lock = new Lock();
  #timer: unknown = null;
  #stopped = true;
  /** Whether the first tick (the boot catch-up) has run. */
  #ticked = false;

  private constructor(
    private readonly file: DurableJson<z.infer<typeof CronFile>>,
    private readonly firedFile: DurableJson<z.infer<typeof FiredFile>>,
    readonly error: string | null,
    private readonly o: {
      clock: TickClock;
      deliver: CronDeliver;
      changed: (org: string, project: string) => void;
      log: Logger;
    },
  ) {}

  static async open(stateDir: string, o: Crons["o"]): Promise<Crons> {
    const file = new DurableJson(`${stateDir}/board/cron.json`, schemaParse(CronFile));
    const firedFile = new DurableJson(`${stateDir}/board/cron_fired.json`, schemaParse(FiredFile));
    const read = await file.read();
    const crons = new Crons(file, firedFile, read.state === "unreadable" ? read.why : null, o);
    if (read.state === "read") crons.entries = read.value.crons;
    const fired = await firedFile.read();
    if (fired.state === "read") {
      for (const f of fired.value.fired) crons.fired.set(f.uuid, f);
    } else if (fired.state === "unreadable") {
      // Names of past fires are a convenience: keep the damaged file aside and start afresh.
      o.log.warn("cron_fired_unreadable", { why: fired.why });
      await Deno.rename(firedFile.path, `${firedFile.path}.damaged-${Date.now()}`).catch(() => {});
    }
    return crons;
  }

  list(org: string, project: string): CronEntry[] {
    return this.entries.filter((e) => e.org === org && e.project === project);
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

  /** Starts the tick: the first one at once, which is the boot catch-up; resolves after it. */
  start(): Promise<void> {
    this.#stopped = false;
    return this.tick();
  }

  stop(): Promise<unknown> {
    this.#stopped = true;
    if (this.#timer !== null) this.o.clock.clear(this.#timer);
    this.#timer = null;
    return this.#lock.idle();
  }

  /**
   * Fires every due schedule once; resolves when each fire has been delivered or failed. The
   * next sleep is armed at once, so a slow delivery (a lead waking) never holds back the others.
   */
  async tick(): Promise<void> {
    const now = this.o.clock.now();
    const boot = !this.#ticked;
    this.#ticked = true;
    const due = this.entries.filter((e) =>
      !this.#inflight.has(e.id) && Date.parse(e.next_fire) <= now
    );
    const fires = due.map((e) => this.#fire(e, now, boot));
    this.#arm();
    await Promise.all(fires);
    this.#arm();
  }

  async #fire(e: CronEntry, now: number, boot: boolean): Promise<void> {
    this.#inflight.add(e.id);
    try {
      const dueAt = Date.parse(e.next_fire);
      const late = now - dueAt > MISSED_GRACE_MS;
      const text = late ? missedPreface(e, dueAt, now, boot) + e.prompt : e.prompt;
      const uuid = crypto.randomUUID();
      this.#remember(uuid, e);
      await this.firedFile.write({ version: 1, fired: this.#firedList() }).catch((error) =>
        this.o.log.warn("cron_fired_unwritable", { error })
      );
      let failed: string | null = null;
      try {
        await this.o.deliver(e, text, uuid);
      } catch (err) {
        failed = (err as Error).message ?? String(err);
        this.o.log.warn("cron_fire_undelivered", { cron: e.id, project: e.project, why: failed });
      }
      await this.#change(e.org, e.project, (list) =>
        list.flatMap((x) => {
          if (x.id !== e.id) return [x];
          if (failed !== null) {
            return [{
              ...x,
              last_error: failed,
              next_fire: new Date(now + RETRY_MS).toISOString(),
            }];
          }
          const next = nextAfter(x.schedule, now);
          if (next === null) return []; // a one-shot, or a schedule with no occurrence left
          const fired = new Date(now).toISOString();
          return [{
            ...x,
            last_fired: fired,
            last_error: null,
            next_fire: new Date(next).toISOString(),
          }];
        })).catch((error) => this.o.log.warn("cron_advance_failed", { cron: e.id, error }));
    } finally {
      this.#inflight.delete(e.id);
    }
  }

  #remember(uuid: string, e: CronEntry): void {
    this.fired.set(uuid, { cron_id: e.id, name: e.description ?? scheduleText(e.schedule) });
    while (this.fired.size > FIRED_CAP) this.fired.delete(this.fired.keys().next().value!);
  }

  #firedList(): z.infer<typeof Fired>[] {
    return [...this.fired].map(([uuid, f]) => ({ uuid, ...f }));
  }

  /** One change to one project's schedules at a time: written, then announced; else undone. */
  #change(org: string, project: string, fn: (list: CronEntry[]) => CronEntry[]): Promise<void> {
    return this.#lock.run(async () => {
      if (this.error !== null) {
        throw new BoardError(`the schedules cannot be changed: ${this.error}`);
      }
      const before = this.entries;
      const mine = (e: CronEntry) => e.org === org && e.project === project;
      this.entries = [...before.filter((e) => !mine(e)), ...fn(before.filter(mine))];
      try {
        await this.file.write({ version: 1, crons: this.entries });
      } catch (err) {
        this.entries = before;
        throw new BoardError(`the schedules could not be saved: ${(err as Error).message}`);
      }
      this.o.changed(org, project);
    });
  }

  /** Sleeps until the earliest fire, in chunks of at most MAX_SLEEP_MS. */
  #arm(): void {
    if (this.#stopped) return;
    if (this.#timer !== null) this.o.clock.clear(this.#timer);
    this.#timer = null;
    const waiting = this.entries.filter((e) => !this.#inflight.has(e.id));
    if (waiting.length === 0) return;
    const earliest = Math.min(...waiting.map((e) => Date.parse(e.next_fire)));
    const delay = Math.max(0, Math.min(MAX_SLEEP_MS, earliest - this.o.clock.now()));
    this.#timer = this.o.clock.set(() => {
      this.#timer = null;
      void this.tick();
    }, delay);
  }
}

/**
 * The first words of a missed fire: when it was due, how many occurrences fell due, why it is
 * late (forge was down: the boot catch-up; or it could not fire in time), and that it fires once.
 */
function missedPreface(e: CronEntry, dueAt: number, now: number, boot: boolean): string {
  const n = occurrencesDue(e.schedule, dueAt, now);
  const count = n === 1 ? "its one occurrence" : `${n} occurrences`;
  const why = boot ? "while forge was not running" : "and forge could not fire it in time";
  return `[missed cron ${e.id}] This schedule (${scheduleText(e.schedule)}) was due at ` +
    `${new Date(dueAt).toISOString()} ${why}; ${count} fell due, and it fires once now.\n\n`;
}
