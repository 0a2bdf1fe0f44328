import type { Slot } from "../../protocol/mod.ts";
import { type Delivery, type Host, Refusal, type ToolCall } from "../../server/subsystem.ts";
import { ownWords } from "../../server/subsystem.ts";
import type { GotifyClient } from "./gotify_client.ts";
import type { SlackHub } from "./slack_hub.ts";
import type { SubscriptionStore } from "./store.ts";

/** What the connectors' parts share: the Host, the stored sets and the two live clients. */
export interface Connectors {
  host: Host;
  store: SubscriptionStore;
  /** Null when forge.toml has no `[gotify]`. */
  gotify: GotifyClient | null;
  slack: SlackHub;
}

/** The lead of a project: where `connector_subscriptions_changed` is keyed. */
export function leadSlot(org: string, project: string): Slot {
  return { org, project, label: "lead" };
}

/** Announces a project's sets after a change (`connector_subscriptions_changed`; board news). */
export function announceSets(c: Connectors, org: string, project: string): void {
  c.host.emit({
    name: "connector_subscriptions_changed",
    fields: { key: leadSlot(org, project), ...c.store.setsOf({ org, name: project }) },
  });
}

/** Where a subscription's deliveries go: the seat that made it. */
export function ownerSlot(s: { org: string; project: string; owner: string }): Slot {
  return { org: s.org, project: s.project, label: s.owner };
}

/** Whether a stored subscription belongs to the calling seat. */
export function ownedBy(
  s: { org: string; project: string; owner: string },
  call: ToolCall,
): boolean {
  const me = call.seat.slot;
  return s.org === me.org && s.project === me.project && s.owner === me.label;
}

/** A tool's refusal in forge's words, naming the tool. */
export function refuse(tool: string, why: string): Refusal {
  return new Refusal(tool, `${tool}: ${why}`);
}

/**
 * A tool's refusal from a caught error: forge's own sentence as it stands; an engine's or a
 * library's message is logged with its cause and the tool says what failed in forge's words.
 */
export function refuseFrom(c: Connectors, tool: string, err: unknown, failed: string): Refusal {
  return refuse(
    tool,
    ownWords(err, {
      log: c.host.log,
      event: "connector_tool_failed",
      fallback: `${failed}; the log has the cause`,
      fields: { tool },
    }),
  );
}

/** A subscription id as the tools take it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const chains = new WeakMap<Host, Map<string, Promise<void>>>();

/**
 * Hands a delivery to a seat after the ones before it to the same seat, so two notifications
 * that arrive while the seat sleeps reach it in the order they came (waking is not instant, and
 * two wakes racing would swap them). A seat that cannot take one is logged; the next still goes.
 */
export function deliverInOrder(c: Connectors, slot: Slot, delivery: Delivery, what: string): void {
  const byHost = chains.get(c.host) ?? new Map<string, Promise<void>>();
  chains.set(c.host, byHost);
  const key = `${slot.org}/${slot.project}/${slot.label}`;
  const next = (byHost.get(key) ?? Promise.resolve()).then(async () => {
    await c.host.deliver(slot, delivery);
  })
    .catch((err) => c.host.log.warn(what, { seat: slot, error: (err as Error).message }));
  byHost.set(key, next);
  void next.then(() => {
    if (byHost.get(key) === next) byHost.delete(key);
  });
}
