import {
  isBoardNews,
  isDictateModelsNews,
  isExtensionsNews,
  isFleetNews,
  sameSlot,
  type SessionUpdate,
  type Subject,
  updateSlot,
} from "../../protocol/mod.ts";

/** A subject's snapshot data, typed by the subject: protocol/'s map (SNAPSHOT_SCHEMAS). */
export type { SnapshotOf } from "../../protocol/mod.ts";

/**
 * Whether a subscription to `subject` is sent `u`: the routing rule of spec: What a client
 * receives, read from protocol/'s update tables, so a client holding several subscriptions
 * tells whose an update is. A seat hears its own; home hears every keyless update and the keyed
 * ones a home row draws; usage is a scan, never a feed.
 */
export function hears(subject: Subject, u: SessionUpdate): boolean {
  if (typeof subject === "object") {
    const slot = updateSlot(u);
    return slot !== null && sameSlot(slot, subject.session);
  }
  switch (subject) {
    case "home":
      return updateSlot(u) === null || isFleetNews(u);
    case "board":
      return isBoardNews(u);
    case "dictate_models":
      return isDictateModelsNews(u);
    case "extensions":
      return isExtensionsNews(u);
    case "usage":
      return false;
  }
}
