import type { NotifyKind, SettingsDocument, Slot } from "../../../../protocol/mod.ts";
import { sameSlot, slotName } from "../../../../protocol/mod.ts";
import { guarded, MONOTONIC } from "../../../../server/clock.ts";
import { NeedReader } from "../../../../subsystems/notify/needs.ts";
import { Notifier, type NotifierSettings } from "../../../../subsystems/notify/notifier.ts";
import { composePush, type Push, seatTitle } from "../../../../subsystems/notify/push.ts";
import type { ForgeClient } from "../net/client.ts";

/** `[notify]`'s defaults (docs/notify.md "The keys"), for a forge whose settings say none. */
const KINDS: NotifyKind[] = ["ask", "failed", "finished", "auth"];
const COALESCE_SECS = 30;
const FINISHED_AFTER_SECS = 120;

/** One key's value in the forge's settings document, or undefined. */
function setting(doc: SettingsDocument | null, path: string) {
  for (const area of doc?.areas ?? []) {
    const key = area.keys.find((k) => k.path === path);
    if (key) return key.value;
  }
  return undefined;
}

/** The rules this forge's own pushes follow, read from its settings as they stand. */
function rules(c: ForgeClient): NotifierSettings & { finishedAfterMs: number } {
  const doc = c.state.settings;
  const kinds = setting(doc, "notify.kinds");
  const coalesce = setting(doc, "notify.coalesce_secs");
  const finished = setting(doc, "notify.finished_after_secs");
  return {
    kinds: Array.isArray(kinds) ? KINDS.filter((k) => kinds.includes(k)) : KINDS,
    coalesceMs: (typeof coalesce === "number" ? coalesce : COALESCE_SECS) * 1000,
    finishedAfterMs: (typeof finished === "number" ? finished : FINISHED_AFTER_SECS) * 1000,
  };
}

/**
 * The page's own words for a need whose line forge builds from what an agent wrote (a tool's
 * command, a question, the CLI's error): forge takes every secret its config and the vault hold
 * out of a push's words, which the page cannot know, so a call from the page says only what
 * kind of thing waits. A finished turn's length and an account's name carry nothing of the sort.
 */
const OWN_WORDS: Partial<Record<NotifyKind, string>> = {
  ask: "an ask is waiting for your answer",
  failed: "its turn failed",
};

/** The orgs and their projects as the home lists them (a title names the org where two share). */
function orgsOf(c: ForgeClient) {
  const byOrg = new Map<string, { name: string }[]>();
  for (const p of c.state.home?.projects ?? []) {
    const list = byOrg.get(p.project.org) ?? [];
    list.push({ name: p.project.name });
    byOrg.set(p.project.org, list);
  }
  return [...byOrg].map(([name, projects]) => ({ name, projects }));
}

/** What a forge's watcher calls to raise one notification. */
export type Raise = (c: ForgeClient, push: Push & { seat: Slot }) => void;

/**
 * A forge's seats calling the person through this page, by the rules forge's own pushes keep
 * (docs/notify.md "When"; the notify subsystem's own reader and notifier): a parked ask, a failed
 * turn, a sign-in needed, a long turn finished, coalesced per seat, and never for a seat the
 * person has in front of them - this page visible, or the seat this page shows and answers. Its
 * words are forge's titles; the lines say what waits without an agent's words (OWN_WORDS).
 */
export class ForgeAlerts {
  readonly #notifier: Notifier;
  readonly #read: Parameters<ForgeClient["updateReaders"]["add"]>[0];

  constructor(private readonly c: ForgeClient, visible: () => boolean, raise: Raise) {
    this.#notifier = new Notifier({
      // A throw in a timer is said at the console, never left to end the page's work.
      clock: guarded(MONOTONIC, (err) => console.error("forge: a notification failed", err)),
      settings: () => rules(c),
      attended: (slot) => visible() || this.#shows(slot),
      compose: (slot, needs) =>
        composePush(
          slot,
          needs.map((n) => ({ ...n, line: OWN_WORDS[n.kind] ?? n.line })),
          { title: seatTitle(slot, orgsOf(c)), clientUrl: null },
        ),
      deliver: (push) => {
        if (push.seat) raise(c, { ...push, seat: push.seat });
      },
    });
    const reader = new NeedReader(() => performance.now(), () => rules(c).finishedAfterMs);
    this.#read = (u) => {
      // The notifier reads protocol/'s typed updates, which the page's reader already holds; a
      // name protocol/ does not know carries nothing the notifier reads.
      if (u.known !== true) return;
      for (const change of reader.read(u)) this.#notifier.apply(change);
    };
    c.updateReaders.add(this.#read);
  }

  /** The page was hidden or shown, or its seat moved. */
  attendanceChanged(): void {
    this.#notifier.attendanceChanged();
  }

  stop(): void {
    this.c.updateReaders.delete(this.#read);
    this.#notifier.stop();
  }

  #shows(slot: Slot): boolean {
    const seat = this.c.state.seat;
    return seat !== null && sameSlot(seat.slot, slot);
  }
}

/** The tag a seat's notifications share, so a page's and a push's for one seat are one. */
export function seatTag(host: string, seat: string): string {
  return `forge ${host} ${seat}`;
}

/** The page's own address of a seat on one forge, which a tap opens. */
export function seatHash(host: string, seat: Slot | string): string {
  return `#/@${host}/seat/${typeof seat === "string" ? seat : slotName(seat)}`;
}
