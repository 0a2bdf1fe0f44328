import {
  isBoardNews,
  isDictateModelsNews,
  isExtensionsNews,
  isFleetNews,
  sameSlot,
  type Subject,
  subjectKey,
} from "../protocol/mod.ts";
import type { NumberedUpdate } from "./workspace/stream.ts";

/**
 * One connection's subscriptions, counted: two subscribes to one subject need two unsubscribes.
 * spec: What a client sends > unsubscribe. `wants` is the routing rule of "What a client receives".
 */
export class Subscriptions {
  readonly #counts = new Map<string, { subject: Subject; count: number }>();

  add(subject: Subject): void {
    const key = subjectKey(subject);
    const entry = this.#counts.get(key);
    if (entry) entry.count++;
    else this.#counts.set(key, { subject, count: 1 });
  }

  /** Drops one entry; true when the subject is no longer heard at all. */
  remove(subject: Subject): boolean {
    const key = subjectKey(subject);
    const entry = this.#counts.get(key);
    if (!entry) return true;
    if (--entry.count > 0) return false;
    this.#counts.delete(key);
    return true;
  }

  count(subject: Subject): number {
    return this.#counts.get(subjectKey(subject))?.count ?? 0;
  }

  /** Whether any subscription is a seat's session subject. */
  get holdsSeat(): boolean {
    for (const { subject } of this.#counts.values()) if (typeof subject === "object") return true;
    return false;
  }

  get empty(): boolean {
    return this.#counts.size === 0;
  }

  /** Whether any subscription wants this update; a connection gets one copy however many do. */
  wants(u: NumberedUpdate): boolean {
    for (const { subject } of this.#counts.values()) {
      if (routes(subject, u)) return true;
    }
    return false;
  }
}

/**
 * Whether a connection is sent an update: the one it is for alone, or one its subscriptions
 * route (spec: What a client receives), narrowed to answering connections when it is for them.
 */
export function reaches(
  conn: { id: number; answering: boolean; subs: Subscriptions },
  u: NumberedUpdate,
): boolean {
  if (typeof u.only === "number") return conn.id === u.only;
  if (u.only === "answering" && !conn.answering) return false;
  return conn.subs.wants(u);
}

/** The routing rule for one subject. */
export function routes(subject: Subject, u: NumberedUpdate): boolean {
  if (typeof subject === "object") return u.slot !== null && sameSlot(u.slot, subject.session);
  switch (subject) {
    case "home":
      // Two arms: an update a home row draws something of, and one belonging to no seat at all
      // (the plugin records name no seat, so they cross here too).
      return u.slot === null || isFleetNews(u.update);
    case "board":
      return isBoardNews(u.update);
    case "dictate_models":
      return isDictateModelsNews(u.update);
    case "extensions":
      return isExtensionsNews(u.update);
    case "usage":
      return false; // spec: usage is a scan, not a feed: nothing updates it.
  }
}
