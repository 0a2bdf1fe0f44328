import { z } from "zod";
import type { GotifyNotification, GotifySubscription } from "../../protocol/mod.ts";
import {
  defineTool,
  type ToolHandler,
  toolHandlers,
  type ToolRole,
} from "../../server/subsystem.ts";
import {
  announceSets,
  type Connectors,
  deliverInOrder,
  ownedBy,
  ownerSlot,
  refuse,
  refuseFrom,
  UUID,
} from "./context.ts";
import type { GotifyMessage } from "./gotify_client.ts";

const ANY: readonly ToolRole[] = ["lead", "worker"];
const Priority = z.number().int().min(0).max(255);

/** The `gotify` family, the original's: subscribe, list, unsubscribe, apps, recent. */
export const GOTIFY_TOOLS = [
  defineTool({
    name: "gotify__subscribe",
    family: "gotify",
    description:
      "Subscribe this seat to Gotify notifications: those of any of `applications` (names; empty " +
      "= every application) at `min_priority` or above arrive as a new user turn.",
    input: z.object({
      applications: z.array(z.string().min(1)).default([]),
      min_priority: Priority.default(0),
    }).strict(),
    roles: ANY,
  }),
  defineTool({
    name: "gotify__list",
    family: "gotify",
    description: "This seat's own Gotify subscriptions.",
    input: z.object({}).strict(),
    roles: ANY,
    readOnly: true,
  }),
  defineTool({
    name: "gotify__unsubscribe",
    family: "gotify",
    description: "Remove one of this seat's Gotify subscriptions by its id.",
    input: z.object({ id: z.string() }).strict(),
    roles: ANY,
  }),
  defineTool({
    name: "gotify__apps",
    family: "gotify",
    description: "The Gotify server's application names (what a subscription names).",
    input: z.object({}).strict(),
    roles: ANY,
    readOnly: true,
  }),
  defineTool({
    name: "gotify__recent",
    family: "gotify",
    description: "Recent Gotify notifications, newest first, filtered by application and priority.",
    input: z.object({
      applications: z.array(z.string().min(1)).default([]),
      min_priority: Priority.default(0),
      limit: z.number().int().min(1).default(20),
    }).strict(),
    roles: ANY,
    readOnly: true,
  }),
] as const;

const NO_GOTIFY = "no Gotify server configured in forge.toml [gotify] (url and client_token)";

/** Whether a subscription takes a notification. */
export function matches(s: GotifySubscription, n: GotifyNotification): boolean {
  return n.priority >= s.min_priority &&
    (s.applications.length === 0 || s.applications.includes(n.app));
}

/** The words a seat reads (the original's `[Gotify - app '…', priority N]` prefix). */
export function gotifyText(n: GotifyNotification): string {
  const head = `[Gotify - app '${n.app}', priority ${n.priority}]`;
  return [head, n.title, n.message].filter((s) => s !== "").join("\n");
}

/**
 * Delivers one notification to every seat whose subscription matches, once per seat: a forged
 * user turn with `source: gotify` (spec: "Not every frame on the stream is the CLI's"), announced
 * by `gotify_notification_appended`. A seat that cannot take it is logged.
 */
export function deliverNotification(c: Connectors, n: GotifyNotification): void {
  const seats = new Map<string, GotifySubscription>();
  for (const s of c.store.gotify) {
    if (matches(s, n)) seats.set(`${s.org}/${s.project}/${s.owner}`, s);
  }
  for (const s of seats.values()) {
    const key = ownerSlot(s);
    const uuid = crypto.randomUUID();
    deliverInOrder(c, key, {
      text: gotifyText(n),
      source: "gotify",
      uuid,
      announce: { name: "gotify_notification_appended", fields: { key, notification: n, uuid } },
    }, "gotify_delivery_failed");
  }
}

export function notificationOf(m: GotifyMessage, app: string): GotifyNotification {
  return {
    app,
    title: m.title,
    message: m.message,
    priority: Math.max(0, Math.min(255, m.priority)),
  };
}

/** The family's handlers. */
export function gotifyTools(c: Connectors): Record<string, ToolHandler> {
  const client = (tool: string) => {
    if (!c.gotify) throw refuse(tool, NO_GOTIFY);
    return c.gotify;
  };
  return toolHandlers(GOTIFY_TOOLS)({
    gotify__subscribe: async ({ applications, min_priority }, call) => {
      client("gotify__subscribe");
      const { slot } = call.seat;
      const id = crypto.randomUUID();
      await c.store.change((d) =>
        d.gotify.push({
          id,
          org: slot.org,
          project: slot.project,
          owner: slot.label,
          applications: [...new Set(applications)],
          min_priority,
        })
      ).catch((err) => {
        throw refuseFrom(c, "gotify__subscribe", err, "the subscription was not stored");
      });
      announceSets(c, slot.org, slot.project);
      return { text: `subscribed to Gotify (id ${id})` };
    },
    gotify__list: (_input, call) => {
      const mine = c.store.gotify.filter((s) => ownedBy(s, call)).map((s) => ({
        id: s.id,
        project: s.project,
        applications: s.applications,
        min_priority: s.min_priority,
      }));
      return Promise.resolve({ text: JSON.stringify(mine) });
    },
    gotify__unsubscribe: async ({ id }, call) => {
      if (!UUID.test(id)) throw refuse("gotify__unsubscribe", `\`${id}\` is not a subscription id`);
      const found = c.store.gotify.find((s) => s.id === id);
      if (!found || !ownedBy(found, call)) {
        throw refuse("gotify__unsubscribe", `this seat has no Gotify subscription ${id}`);
      }
      await c.store.change((d) => (d.gotify = d.gotify.filter((s) => s.id !== id))).catch(
        (err) => {
          throw refuseFrom(c, "gotify__unsubscribe", err, "the subscription was not removed");
        },
      );
      announceSets(c, found.org, found.project);
      return { text: `unsubscribed ${id}` };
    },
    gotify__apps: async () => {
      const names = await client("gotify__apps").apps().catch((err) => {
        throw refuseFrom(c, "gotify__apps", err, "Gotify's applications could not be read");
      });
      return { text: JSON.stringify(names) };
    },
    gotify__recent: async ({ applications, min_priority, limit }) => {
      const recent = await client("gotify__recent").recent().catch((err) => {
        throw refuseFrom(c, "gotify__recent", err, "Gotify's messages could not be read");
      });
      const out = recent
        .filter(({ message, app }) =>
          message.priority >= min_priority &&
          (applications.length === 0 || applications.includes(app))
        )
        .slice(0, limit)
        .map(({ message, app }) => ({
          app,
          title: message.title,
          message: message.message,
          priority: message.priority,
          date: message.date,
        }));
      return { text: JSON.stringify(out) };
    },
  });
}
