import {
  ClientMessage,
  sameSlot,
  type Slot,
  type Subject,
  subjectKey,
} from "../../protocol/mod.ts";

/** A subscription as it was asked for: re-sent as it is, `answering` and `review` with it. */
export type Subscription = Extract<ClientMessage, { kind: "subscribe" }>;

/** What a reconnect made of the subscriptions the connection held, each in the order held. */
export interface Restoration {
  /** Answered with their snapshot on the new socket. */
  restored: Subscription[];
  /** Refused on the new socket (a seat no longer there), with forge's words: no longer held. */
  refused: { subscription: Subscription; why: string }[];
}

/**
 * The subscriptions a connection holds, whoever sent them (a `follow`, or `send` by hand), in the
 * order they were opened, counted as forge counts them: each subscribe adds an entry and each
 * unsubscribe drops one of its subject's (spec: unsubscribe), and one forge refused is not held
 * (spec: Subjects: a seat nobody started is an error). A reconnect re-sends every entry in order
 * (`restore`) and says what each was answered once all were. spec: The socket > Reaching it
 * ("What a reconnect must do is the client's own rule").
 */
export class Subscriptions {
  #held: Subscription[] = [];
  #restoring: { pending: Subscription[]; done: (r: Restoration) => void } & Restoration | null =
    null;

  /** What is held now, oldest first. */
  get held(): readonly Subscription[] {
    return this.#held;
  }

  /** Notes a message going out by any path: a well-formed (un)subscribe is forge's to hold. */
  sent(message: unknown): void {
    const kind = (message as { kind?: unknown } | null)?.kind;
    if (kind !== "subscribe" && kind !== "unsubscribe") return;
    const read = ClientMessage.safeParse(message);
    if (!read.success) return;
    const m = read.data;
    if (m.kind === "subscribe") {
      // As forge reads it: a flag left undefined is one not said.
      const { answering, review } = m;
      this.#held.push({
        kind: "subscribe",
        what: m.what,
        ...(answering === undefined ? {} : { answering }),
        ...(review === undefined ? {} : { review }),
      });
    } else if (m.kind === "unsubscribe") this.#letGo(m.what);
  }

  /** A frame in: a subscribe's snapshot or its refusal. */
  heard(m: Record<string, unknown>): void {
    const answer = answerOf(m);
    if (answer === null) return;
    if (answer.why !== null) this.#refused(answer.about);
    const r = this.#restoring;
    const at = r?.pending.findIndex((s) => answer.about(s.what)) ?? -1;
    if (!r || at < 0) return;
    const [subscription] = r.pending.splice(at, 1);
    if (answer.why === null) r.restored.push(subscription);
    else r.refused.push({ subscription, why: answer.why });
    if (r.pending.length === 0) this.#finish();
  }

  /**
   * Sends every held subscription again, in order, on a new socket; `done` hears what each was
   * answered once every one was (at once when none is held). A drop before then abandons it.
   */
  restore(send: (m: Subscription) => void, done: (r: Restoration) => void): void {
    const pending = [...this.#held];
    this.#restoring = { pending, done, restored: [], refused: [] };
    if (pending.length === 0) return this.#finish();
    for (const s of pending) send(s);
  }

  /** The socket dropped: a restore under way is over; the next one sends every entry again. */
  dropped(): void {
    this.#restoring = null;
  }

  #finish(): void {
    const r = this.#restoring!;
    this.#restoring = null;
    r.done({ restored: r.restored, refused: r.refused });
  }

  /** forge holds one entry fewer of this subject: the newest goes, the order of the rest stands. */
  #letGo(what: Subject): void {
    const key = subjectKey(what);
    const at = this.#held.findLastIndex((s) => subjectKey(s.what) === key);
    if (at >= 0) this.#held.splice(at, 1);
  }

  #refused(about: (what: Subject) => boolean): void {
    const held = this.#held.findLast((s) => about(s.what));
    if (held) this.#letGo(held.what);
  }
}

/**
 * Which subscription a frame answers, if any: a snapshot answers its subject's; an error naming
 * `subscribe` refuses the seat it names, or the keyless subject its sentence opens with
 * (forge's refusals read `<subject>: ...`).
 */
function answerOf(
  m: Record<string, unknown>,
): { about: (what: Subject) => boolean; why: string | null } | null {
  if (m.kind === "snapshot") {
    const key = subjectKey(m.subject as Subject);
    return { about: (what) => subjectKey(what) === key, why: null };
  }
  if (m.kind !== "error" || m.what !== "subscribe" || typeof m.why !== "string") return null;
  const why = m.why;
  const seat = m.seat as Slot | null;
  return {
    about: (what) =>
      typeof what === "object"
        ? seat !== null && sameSlot(seat, what.session)
        : seat === null && why.startsWith(`${what}: `),
    why,
  };
}
