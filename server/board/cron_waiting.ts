import type { CronEntry } from "../../protocol/mod.ts";
import type { Logger } from "../log.ts";
import type { Delivered } from "../subsystem.ts";
import type { Fired } from "./cron_file.ts";

/** Whom a fire's words go to and what announces them: the fields of a schedule a delivery reads,
 * and its name as `cron_names` gives it. */
export type CronTarget = Pick<CronEntry, "id" | "org" | "project" | "description"> & {
  name: string;
};

/**
 * Hands a fire's words to the project's lead; rejects with a sentence when it cannot. `once`:
 * this very fire (its uuid) was handed over before, so the delivery checks the lead's transcript
 * first and sends nothing when the prompt already landed (answering `landed`).
 */
export type CronDeliver = (
  target: CronTarget,
  text: string,
  uuid: string,
  once: boolean,
) => Promise<Delivered>;

/**
 * The fires handed to a lead that its CLI has not started (spec: prompt_lifecycle): a lead
 * mid-turn keeps a prompt in its CLI's queue, in memory, so the CLI's end loses it. Each stays
 * `waiting` in the fired file from its hand-over - the first or any later one - until its own
 * `prompt_lifecycle` says started or cancelled, so a restart however soon after a hand-over
 * hands it over again. This run also remembers which lead's CLI holds each one it handed over:
 * when that lead's next CLI is up (a crash forge outlived, then a wake by a fire or a person's
 * resume), the fires the last one held are handed to it. That moment rather than the death: a
 * failed seat is left Failed until something brings it back (a crash is not turned into a
 * respawn loop), and the new CLI takes them at once. Every repeat goes under the fire's own uuid
 * with `once`, so one whose row reached the transcript is never sent twice; one found `landed`
 * is no longer waiting.
 */
export class WaitingFires {
  /** Lead (`org/project`) → the waiting fires this run handed to its CLI. */
  readonly #held = new Map<string, Set<string>>();

  constructor(
    private readonly fired: Map<string, Fired>,
    private readonly deliver: CronDeliver,
    private readonly log: Logger,
  ) {}

  /** A hand-over went through: the lead's CLI holds it, or it had landed (no longer waiting).
   * Answers whether the fired file changed. */
  handed(uuid: string, to: { org: string; project: string }, outcome: Delivered): boolean {
    if (outcome === "landed") return this.moved(uuid);
    const lead = leadName(to);
    const held = this.#held.get(lead) ?? new Set();
    this.#held.set(lead, held.add(uuid));
    return false;
  }

  /** Its CLI started it or a person cancelled it: no longer waiting. Answers whether the fired
   * file changed. */
  moved(uuid: string): boolean {
    for (const held of this.#held.values()) held.delete(uuid);
    return clearWaiting(this.fired, uuid);
  }

  /** The fires a lead's CLI that ended held: the ones its next CLI is handed. */
  heldBy(to: { org: string; project: string }): Fired[] {
    const lead = leadName(to);
    const uuids = [...this.#held.get(lead) ?? []];
    this.#held.delete(lead);
    return uuids.flatMap((u) => this.fired.get(u)?.waiting ? [this.fired.get(u)!] : []);
  }

  /**
   * Hands waiting fires over again (the boot's, or a lead's whose CLI ended), each under its own
   * uuid with `once`. One that cannot be handed over stays waiting for the next boot, logged.
   * Answers whether the fired file changed.
   */
  async again(fires: Iterable<Fired>): Promise<boolean> {
    let changed = false;
    for (const f of fires) {
      const w = f.waiting;
      if (!w) continue;
      const target = {
        id: f.cron_id,
        org: w.org,
        project: w.project,
        description: w.description,
        name: f.name,
      };
      try {
        const outcome = await this.deliver(target, w.text, f.uuid, true);
        this.log.info("cron_fire_handed_again", {
          cron: f.cron_id,
          project: w.project,
          uuid: f.uuid,
          outcome,
        });
        changed = this.handed(f.uuid, w, outcome) || changed;
      } catch (err) {
        const why = (err as Error).message ?? String(err);
        this.log.warn("cron_fire_still_waiting", { cron: f.cron_id, project: w.project, why });
      }
    }
    return changed;
  }
}

function leadName(to: { org: string; project: string }): string {
  return `${to.org}/${to.project}`;
}

/** Clears a fire's `waiting` (its CLI moved it, or it had landed); false: it was not. */
export function clearWaiting(fired: Map<string, Fired>, uuid: string): boolean {
  const f = fired.get(uuid);
  if (!f?.waiting) return false;
  const { waiting: _, ...rest } = f;
  fired.set(uuid, rest);
  return true;
}
