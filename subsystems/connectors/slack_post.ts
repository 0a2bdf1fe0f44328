import { z } from "zod";
import type { SlackDraft } from "../../protocol/mod.ts";
import {
  type CommandHandler,
  defineTool,
  Refusal,
  type ToolCall,
  type ToolHandler,
  toolHandlers,
  type ToolResult,
  type ToolRole,
} from "../../server/subsystem.ts";
import { type Connectors, refuse } from "./context.ts";
import { pickWorkspace, slackCall } from "./slack.ts";
import type { SlackWorkspace } from "./slack_hub.ts";
import { SlackError } from "./slack_api.ts";

/** Slack's own ceiling on one message's text is near here; the original split at 4,000. */
export const PART_CHARS = 4000;
/** A draft nobody answers for this long expires (the original's 600 s). */
export const DRAFT_EXPIRY_MS = 600_000;

const ANY: readonly ToolRole[] = ["lead", "worker"];
const Workspace = z.string().min(1).optional().describe(
  "the [[slack]] workspace label; optional when forge.toml has exactly one",
);
const held = <const N extends string, I extends z.ZodType>(
  name: N,
  description: string,
  input: I,
) =>
  defineTool({
    name,
    family: "slack",
    description: `${description} HELD: a person approves it before anything is sent.`,
    input,
    roles: ANY,
  });

/** The `slack` family's writing tools: each parks a draft for a person, as the original's do. */
export const SLACK_WRITE_TOOLS = [
  held(
    "slack__post",
    "Post a message to a Slack conversation (a conversation id, or a user id for a DM), optionally " +
      "in a thread. Text over 4,000 characters goes as numbered parts.",
    z.object({
      conversation: z.string().min(1),
      text: z.string().min(1),
      thread_ts: z.string().min(1).optional(),
      workspace: Workspace,
    }).strict(),
  ),
  held(
    "slack__edit",
    "Replace the text of, or delete, one of the user's own Slack messages.",
    z.object({
      conversation: z.string().min(1),
      ts: z.string().min(1),
      text: z.string().min(1).optional(),
      delete: z.boolean().optional(),
      workspace: Workspace,
    }).strict(),
  ),
  held(
    "slack__react",
    "Add (or with remove, take off) an emoji reaction on a message: name is the shortcode " +
      "without colons.",
    z.object({
      conversation: z.string().min(1),
      ts: z.string().min(1),
      name: z.string().regex(/^[a-z0-9_+'-]+$/, "a shortcode without colons"),
      remove: z.boolean().default(false),
      workspace: Workspace,
    }).strict(),
  ),
] as const;

/** Splits text into parts of at most 4,000 characters, numbered `(i/n)` when there are several. */
export function splitParts(text: string, max = PART_CHARS): string[] {
  if (text.length <= max) return [text];
  const room = max - 12; // room for the "(i/n) " number
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > room) {
    // Break at the last newline (else space) in the window, so words stay whole where they can.
    const window = rest.slice(0, room);
    const at = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    const cut = at > room / 2 ? at + 1 : room;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length > 0) chunks.push(rest);
  return chunks.map((c, i) => `(${i + 1}/${chunks.length}) ${c}`);
}

/**
 * Parks a draft on the calling seat. Once a person approves it, `send` runs before the draft
 * resolves, so slack_draft_resolved follows the message reaching Slack (or names why it did
 * not); every other ending comes back as the words the agent reads.
 */
export async function approval(
  c: Connectors,
  call: ToolCall,
  draft: SlackDraft,
  expiryMs: number,
  send: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const { outcome } = c.host.asks.park(call.seat.slot, {
    kind: "slack_post",
    id: draft.id,
    request: draft,
    signal: call.signal,
    expiresMs: expiryMs,
    // Slack's refusal of the approved send is forge's sentence naming Slack's reason: the person
    // and the agent read it (anything else thrown is the held registry's to log and word).
    effect: () =>
      send().catch((err) => {
        if (err instanceof SlackError || err instanceof Refusal) {
          return { text: err.message, isError: true };
        }
        throw err;
      }),
  });
  const o = await outcome;
  if (o.ending === "answered" && o.result) return o.result;
  const nothing = draft.action === "post" || draft.action === "upload"
    ? "nothing was sent"
    : "the message is untouched";
  if (o.ending === "expired") {
    return {
      text: `nobody answered the draft within ${Math.round(expiryMs / 1000)} s, so ${nothing}`,
    };
  }
  if (o.ending === "declined") return { text: `not approved, so ${nothing}` };
  return { text: `the draft was withdrawn (${o.ending}), so ${nothing}` };
}

/** The user's own messages only: refused before anything parks. */
async function ownMessage(ws: SlackWorkspace, conversation: string, ts: string): Promise<void> {
  if (ws.me === null) ws.me = String((await slackCall("slack__edit", ws, "auth.test", {})).user_id);
  const page = await slackCall("slack__edit", ws, "conversations.replies", {
    channel: conversation,
    ts,
    limit: 1,
  }).catch(() =>
    // Not a thread's parent: `conversations.replies` refuses it, and the history holds it.
    slackCall("slack__edit", ws, "conversations.history", {
      channel: conversation,
      latest: ts,
      inclusive: true,
      limit: 1,
    })
  );
  const m = (page.messages as { ts?: string; user?: string }[]).find((x) => x.ts === ts);
  if (!m) throw refuse("slack__edit", `no message ${ts} in ${conversation}`);
  if (m.user !== ws.me) {
    throw refuse("slack__edit", `message ${ts} is not the user's own, so forge will not change it`);
  }
}

type In = Record<string, unknown>;

export function slackWriteTools(c: Connectors, expiryMs: number): Record<string, ToolHandler> {
  const draftOf = (
    ws: SlackWorkspace,
    conversation: string,
    rest: Pick<SlackDraft, "thread_ts" | "text" | "parts"> & Partial<SlackDraft>,
  ): SlackDraft => ({
    id: crypto.randomUUID(),
    workspace: ws.config.workspace,
    conversation,
    action: "post",
    ...rest,
  });
  return toolHandlers(SLACK_WRITE_TOOLS)({
    slack__post: async ({ conversation, text, thread_ts, workspace }, call) => {
      const ws = pickWorkspace(c, "slack__post", workspace);
      const parts = splitParts(text);
      const draft = draftOf(ws, conversation, { thread_ts: thread_ts ?? null, text, parts });
      return await approval(c, call, draft, expiryMs, async () => {
        let channel = conversation;
        if (/^[UW][A-Z0-9]+$/.test(conversation)) {
          // A user id: the DM with them, opened (or found) by Slack.
          const open = await slackCall("slack__post", ws, "conversations.open", {
            users: conversation,
          });
          channel = String((open.channel as In).id);
        }
        for (let i = 0; i < parts.length; i++) {
          try {
            await ws.api.call("chat.postMessage", {
              channel,
              text: parts[i],
              ...(thread_ts ? { thread_ts } : {}),
            });
          } catch (err) {
            const why = (err as Error).message;
            if (i === 0) throw refuse("slack__post", `nothing was sent: ${why}`);
            const unsent = parts.map((_, k) => k + 1).slice(i).join(", ");
            return {
              text: `posted part${i > 1 ? "s" : ""} 1${i > 1 ? `-${i}` : ""} of ${parts.length}; ` +
                `the rest were NOT sent (part${parts.length - i > 1 ? "s" : ""} ${unsent}): ${why}`,
              isError: true,
            };
          }
        }
        return { text: `posted to Slack (${parts.length} message${parts.length > 1 ? "s" : ""})` };
      });
    },
    slack__edit: async ({ conversation, ts, text, workspace, delete: gone }, call) => {
      const del = gone === true;
      if (del === (text !== undefined)) {
        throw refuse("slack__edit", "give either the new `text` or `delete: true`, not both");
      }
      const ws = pickWorkspace(c, "slack__edit", workspace);
      await ownMessage(ws, conversation, ts);
      const shown = del ? `[delete] message ${ts}` : text!;
      const draft = draftOf(ws, conversation, {
        thread_ts: ts,
        action: del ? "delete" : "edit",
        text: shown,
        parts: [shown],
      });
      return await approval(c, call, draft, expiryMs, async () => {
        if (del) {
          await slackCall("slack__edit", ws, "chat.delete", { channel: conversation, ts });
          return { text: "deleted" };
        }
        await slackCall("slack__edit", ws, "chat.update", { channel: conversation, ts, text });
        return { text: "updated" };
      });
    },
    slack__react: async ({ conversation, ts, name, remove, workspace }, call) => {
      const ws = pickWorkspace(c, "slack__react", workspace);
      const shown = `[${remove ? "unreact" : "react"}: ${name}]`;
      const draft = draftOf(ws, conversation, {
        thread_ts: ts,
        action: remove ? "unreact" : "react",
        text: shown,
        parts: [shown],
      });
      return await approval(c, call, draft, expiryMs, async () => {
        await slackCall("slack__react", ws, remove ? "reactions.remove" : "reactions.add", {
          channel: conversation,
          timestamp: ts,
          name,
        });
        return { text: remove ? "reaction removed" : "reacted" };
      });
    },
  });
}

/** `respond_slack_post {key, id, approved}`: a person's yes or no. */
export function respondSlackPost(c: Connectors): CommandHandler<"respond_slack_post"> {
  return (command, peer) => {
    const { key, id, approved } = command.fields;
    try {
      c.host.asks.answer(
        key,
        "slack_post",
        id,
        peer,
        approved ? { ending: "answered", answer: { approved: true } } : { ending: "declined" },
      );
    } catch (err) {
      // As in the original, a refused respond_slack_post is `error {what: "respond_slack_post"}`.
      if (err instanceof Refusal) throw new Refusal("respond_slack_post", err.message, key);
      throw err;
    }
  };
}
