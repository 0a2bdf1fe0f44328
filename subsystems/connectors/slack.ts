import { z } from "zod";
import type { SlackSubscription } from "../../protocol/mod.ts";
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
import type { SlackArrival, SlackWorkspace } from "./slack_hub.ts";

const ANY: readonly ToolRole[] = ["lead", "worker"];
const Workspace = z.string().min(1).optional().describe(
  "the [[slack]] workspace label; optional when forge.toml has exactly one",
);
const Conversation = z.string().min(1).describe("a conversation id (C…, G…, D…)");

const read = <const N extends string, I extends z.ZodType>(
  name: N,
  description: string,
  input: I,
) => defineTool({ name, family: "slack", description, input, roles: ANY, readOnly: true });

/** The `slack` family's subscription and read-only tools, the original's; none of them parks. */
export const SLACK_READ_TOOLS = [
  read(
    "slack__list",
    "List the Slack conversations the user is in: id, name (a DM's partner user id), kind, and " +
      "whether this seat is subscribed.",
    z.object({
      workspace: Workspace,
      name: z.string().optional().describe("case-insensitive part of the name, purpose or topic"),
      kind: z.enum(["public", "private", "im", "mpim"]).optional(),
    }).strict(),
  ),
  defineTool({
    name: "slack__subscribe",
    family: "slack",
    description:
      "Subscribe this seat to Slack: direct messages, mentions, and/or conversations (mode all or " +
      "mentions). New messages arrive as user turns, from now on.",
    input: z.object({
      workspace: Workspace,
      direct_messages: z.boolean().default(false),
      mentions: z.boolean().default(false),
      conversations: z.array(
        z.object({ id: Conversation, mode: z.enum(["all", "mentions"]).default("all") }).strict(),
      ).default([]),
    }).strict(),
    roles: ANY,
  }),
  defineTool({
    name: "slack__unsubscribe",
    family: "slack",
    description: "Remove one of this seat's Slack subscriptions by its id.",
    input: z.object({ id: z.string() }).strict(),
    roles: ANY,
  }),
  read(
    "slack__search",
    "Search Slack messages, newest first.",
    z.object({
      query: z.string().min(1),
      count: z.number().int().min(1).default(20),
      workspace: Workspace,
    }).strict(),
  ),
  read(
    "slack__user",
    "Look up a Slack user: id, name, real name, time zone.",
    z.object({ user: z.string().min(1), workspace: Workspace }).strict(),
  ),
  read(
    "slack__pins",
    "The pinned messages of a conversation.",
    z.object({ conversation: Conversation, workspace: Workspace }).strict(),
  ),
  read(
    "slack__bookmarks",
    "The bookmarks of a conversation.",
    z.object({ conversation: Conversation, workspace: Workspace }).strict(),
  ),
] as const;

/** The workspace a call names, or the one configured; refused in words otherwise. */
export function pickWorkspace(c: Connectors, tool: string, label?: string): SlackWorkspace {
  const all = [...c.slack.workspaces.keys()];
  if (all.length === 0) throw refuse(tool, "no Slack workspace configured in forge.toml [[slack]]");
  if (label === undefined) {
    if (all.length === 1) return c.slack.workspaces.get(all[0])!;
    throw refuse(tool, `name the workspace: forge.toml has ${all.join(", ")}`);
  }
  const ws = c.slack.workspaces.get(label);
  if (!ws) {
    throw refuse(tool, `no Slack workspace \`${label}\` in forge.toml; there is ${all.join(", ")}`);
  }
  return ws;
}

/** Runs one Web API call for a tool; a failure is the tool's refusal in forge's words. */
export async function slackCall(
  tool: string,
  ws: SlackWorkspace,
  method: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  try {
    return await ws.api.call(method, args);
  } catch (err) {
    // SlackApi.call throws only slackWords' sentences: forge's words, naming the method.
    throw refuse(tool, (err as Error).message);
  }
}

/** What a seat reads for one Slack message (and `slack_message_appended`'s prose). */
export function slackProse(a: SlackArrival): string {
  const where = a.conversationName ? `#${a.conversationName}` : a.conversation;
  const thread = a.threadTs ? `, thread ${a.threadTs}` : "";
  return `[Slack - ${a.workspace} ${where} (${a.conversation})${thread}, ts ${a.ts}] ` +
    `${a.userName} (${a.user}): ${a.text}`;
}

/** Delivers one message to each seat that takes it, once per seat: `source: slack`. */
export function deliverSlack(c: Connectors, a: SlackArrival): void {
  const seats = new Map(a.takers.map((s) => [`${s.org}/${s.project}/${s.owner}`, s]));
  for (const s of seats.values()) {
    const key = ownerSlot(s);
    const uuid = crypto.randomUUID();
    const prose = slackProse(a);
    deliverInOrder(c, key, {
      text: prose,
      source: "slack",
      uuid,
      announce: { name: "slack_message_appended", fields: { key, prose, uuid } },
    }, "slack_delivery_failed");
  }
}

type In = Record<string, unknown>;

export function slackReadTools(c: Connectors): Record<string, ToolHandler> {
  const json = (v: unknown) => ({ text: JSON.stringify(v) });
  return toolHandlers(SLACK_READ_TOOLS)({
    slack__list: async ({ workspace, name, kind }, call) => {
      const ws = pickWorkspace(c, "slack__list", workspace);
      const mine = new Set(
        c.store.slack.filter((s) => ownedBy(s, call) && s.workspace === ws.config.workspace)
          .flatMap((s) => s.conversations.map((x) => x.id)),
      );
      const out: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await slackCall("slack__list", ws, "users.conversations", {
          types: "public_channel,private_channel,mpim,im",
          limit: 200,
          ...(cursor ? { cursor } : {}),
        });
        for (const ch of page.channels as In[]) {
          const k = ch.is_im ? "im" : ch.is_mpim ? "mpim" : ch.is_private ? "private" : "public";
          const label = ch.is_im ? String(ch.user) : String(ch.name ?? ch.id);
          const about = `${label} ${(ch.purpose as In)?.value ?? ""} ${
            (ch.topic as In)?.value ?? ""
          }`;
          if (kind && k !== kind) continue;
          if (name && !about.toLowerCase().includes(name.toLowerCase())) continue;
          out.push({ id: ch.id, name: label, kind: k, subscribed: mine.has(String(ch.id)) });
        }
        cursor = (page.response_metadata as In | undefined)?.next_cursor as string || undefined;
      } while (cursor);
      return json(out);
    },
    slack__subscribe: async ({ workspace, direct_messages, mentions, conversations }, call) => {
      if (!direct_messages && !mentions && conversations.length === 0) {
        throw refuse(
          "slack__subscribe",
          "say what to subscribe to: direct_messages, mentions, or at least one conversation",
        );
      }
      const ws = pickWorkspace(c, "slack__subscribe", workspace);
      // A new conversation subscription reads from now: its mark starts at the newest message.
      // One that no subscription watches any more starts again from now too, rather than
      // delivering everything said since it was last watched.
      const watched = new Set(
        c.store.slack.filter((s) => s.workspace === ws.config.workspace)
          .flatMap((s) => s.conversations.map((conv) => conv.id)),
      );
      for (const conv of conversations) {
        await c.slack.markNow(ws, conv.id, !watched.has(conv.id)).catch((err) => {
          throw refuseFrom(c, "slack__subscribe", err, "the subscription was not stored");
        });
      }
      if (direct_messages || mentions) {
        await c.slack.markMembers(ws).catch((err) => {
          throw refuseFrom(c, "slack__subscribe", err, "the subscription was not stored");
        });
      }
      const { slot } = call.seat;
      const sub: SlackSubscription = {
        id: crypto.randomUUID(),
        org: slot.org,
        project: slot.project,
        owner: slot.label,
        workspace: ws.config.workspace,
        direct_messages,
        mentions,
        conversations,
      };
      await c.store.change((d) => d.slack.push(sub)).catch((err) => {
        throw refuseFrom(c, "slack__subscribe", err, "the subscription was not stored");
      });
      announceSets(c, slot.org, slot.project);
      const n = conversations.length + (direct_messages ? 1 : 0) + (mentions ? 1 : 0);
      return { text: `subscribed to Slack (${n}) (id ${sub.id})` };
    },
    slack__unsubscribe: async ({ id }, call) => {
      if (!UUID.test(id)) throw refuse("slack__unsubscribe", `\`${id}\` is not a subscription id`);
      const found = c.store.slack.find((s) => s.id === id);
      if (!found || !ownedBy(found, call)) {
        throw refuse("slack__unsubscribe", `this seat has no Slack subscription ${id}`);
      }
      await c.store.change((d) => (d.slack = d.slack.filter((s) => s.id !== id))).catch((err) => {
        throw refuseFrom(c, "slack__unsubscribe", err, "the subscription was not removed");
      });
      announceSets(c, found.org, found.project);
      return { text: `unsubscribed ${id}` };
    },
    slack__search: async ({ query, count, workspace }) => {
      const ws = pickWorkspace(c, "slack__search", workspace);
      const page = await slackCall("slack__search", ws, "search.messages", {
        query,
        count,
        sort: "timestamp",
        sort_dir: "desc",
      });
      const matches = ((page.messages as In)?.matches ?? []) as In[];
      return json(
        matches.slice(0, count).map((m) => ({
          ts: m.ts,
          text: m.text,
          conversation: (m.channel as In)?.id ?? null,
          conversation_name: (m.channel as In)?.name ?? null,
          username: m.username ?? m.user ?? null,
        })),
      );
    },
    slack__user: async ({ user, workspace }) => {
      const ws = pickWorkspace(c, "slack__user", workspace);
      const u = (await slackCall("slack__user", ws, "users.info", { user })).user as In;
      return json({ id: u.id, name: u.name, real_name: u.real_name ?? null, tz: u.tz ?? null });
    },
    slack__pins: async ({ conversation, workspace }) => {
      const ws = pickWorkspace(c, "slack__pins", workspace);
      const items = (await slackCall("slack__pins", ws, "pins.list", { channel: conversation }))
        .items as In[];
      return json(
        items.filter((i) => i.message).map((i) => {
          const m = i.message as In;
          return { ts: m.ts, user: m.user ?? null, text: m.text ?? "" };
        }),
      );
    },
    slack__bookmarks: async ({ conversation, workspace }) => {
      const ws = pickWorkspace(c, "slack__bookmarks", workspace);
      const marks = (await slackCall("slack__bookmarks", ws, "bookmarks.list", {
        channel_id: conversation,
      })).bookmarks as In[];
      return json(marks.map((b) => ({ id: b.id, title: b.title ?? null, link: b.link ?? null })));
    },
  });
}
