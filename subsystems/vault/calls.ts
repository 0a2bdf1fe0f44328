import { isEngineError } from "../../server/subsystem.ts";
import { type ToolHandler, toolHandlers, type ToolResult } from "../../server/subsystem.ts";
import type { VaultCards } from "./cards.ts";
import * as c from "./crypto.ts";
import { applyChanges, type ItemView, maskedDiff, pickItem } from "./items.ts";
import { VaultLocked, type VaultSession } from "./session.ts";
import { VAULT_TOOLS } from "./tools.ts";

/** An attachment bigger than this is refused rather than sent back as a tool result. */
export const ATTACHMENT_LIMIT = 1024 * 1024;

/**
 * The vault tools' handlers. Each draws its card from the call's own input (never from the
 * vault: the card must draw no secret, and a locked vault has nothing to show), parks it, and
 * runs on the shared session once approved. The value a call reads is in its answer and
 * nowhere else.
 */
export function vaultCalls(session: VaultSession, cards: VaultCards): Record<string, ToolHandler> {
  const runOpen = async (work: () => Promise<string>): Promise<ToolResult> => {
    try {
      return { text: await work() };
    } catch (err) {
      if (err instanceof VaultLocked) {
        return {
          text:
            `${err.message}: the call did not run. Call it again to ask for the vault to be unlocked.`,
          isError: true,
        };
      }
      // An engine's message goes back to seat_server, which logs it and answers in forge's words.
      if (isEngineError(err)) throw new Error("the vault call failed", { cause: err });
      return { text: `The vault call failed: ${(err as Error).message}`, isError: true };
    }
  };
  const none = { item: null, query: null, field: null, diff: null, attachment: null };

  return toolHandlers(VAULT_TOOLS)({
    vault__search: ({ query }, call) => {
      return cards.hold(
        call,
        { ...none, tool: "search", query },
        () =>
          runOpen(() =>
            session.use(async (ctx) => {
              const q = query.toLowerCase();
              const hits = (await ctx.items()).filter((i) =>
                [i.name, i.fields.get("username"), i.fields.get("uri")]
                  .some((v) => v?.toLowerCase().includes(q))
              );
              return JSON.stringify(
                hits.map((i) => ({
                  id: i.id,
                  name: i.name,
                  username: i.fields.get("username") ?? null,
                  uri: i.fields.get("uri") ?? null,
                  fields: [...i.fields.keys()],
                  attachments: i.attachments.map((a) => a.name),
                })),
                null,
                2,
              );
            })
          ),
      );
    },
    vault__read: ({ item, field }, call) => {
      return cards.hold(
        call,
        { ...none, tool: "read", item, field },
        () =>
          runOpen(() =>
            session.use(async (ctx) => {
              const found = pickItem(await ctx.items(), item);
              const value = found.fields.get(field);
              if (value === undefined) {
                throw new Error(
                  `${found.name} has no field "${field}" (it has: ${
                    [...found.fields.keys()].join(", ")
                  })`,
                );
              }
              return value;
            })
          ),
      );
    },
    vault__create: ({ name, fields }, call) => {
      const draft = { ...none, tool: "create" as const, item: name, diff: maskedDiff(fields) };
      return cards.hold(call, draft, () =>
        runOpen(() =>
          session.use(async (ctx) => {
            const body = await applyChanges({ record: null, key: ctx.userKey, name }, fields);
            const made = await ctx.api.writeCipher(ctx.access, null, body);
            return `Created "${name}" (id ${made.id}).`;
          })
        ));
    },
    vault__update: ({ item, set }, call) => {
      const draft = { ...none, tool: "update" as const, item, diff: maskedDiff(set) };
      return cards.hold(call, draft, () =>
        runOpen(() =>
          session.use(async (ctx) => {
            const found: ItemView = pickItem(await ctx.items(), item);
            const body = await applyChanges(found, set);
            await ctx.api.writeCipher(ctx.access, found.id, body);
            return `Updated ${Object.keys(set).join(", ")} on "${found.name}".`;
          })
        ));
    },
    vault__attachment: ({ item, attachment }, call) => {
      const draft = {
        ...none,
        tool: "attachment" as const,
        item,
        attachment: { name: attachment, size: null },
      };
      // spec: the card draws "an attachment's name and size": the size is filled in while the
      // vault is open (metadata only), and stays null while it is locked.
      const size = () =>
        session.use(async (ctx) => {
          const found = pickItem(await ctx.items(), item);
          const att = found.attachments.find((a) => a.name === attachment || a.id === attachment);
          return { attachment: { name: attachment, size: att?.size ?? null } };
        });
      return cards.hold(call, draft, () =>
        runOpen(() =>
          session.use(async (ctx) => {
            const found = pickItem(await ctx.items(), item);
            const att = found.attachments.find((a) => a.name === attachment || a.id === attachment);
            if (!att) {
              const names = found.attachments.map((a) => a.name).join(", ") || "none";
              throw new Error(`${found.name} has no attachment "${attachment}" (it has: ${names})`);
            }
            if (att.size !== null && att.size > ATTACHMENT_LIMIT) {
              throw new Error(
                `${att.name} is ${att.size} bytes, over the 1 MiB a tool result carries`,
              );
            }
            const body = await c.decryptFile(
              new Uint8Array(await ctx.api.attachment(ctx.access, found.id, att.id)),
              att.key,
            );
            try {
              return new TextDecoder("utf-8", { fatal: true }).decode(body);
            } catch {
              // Not text: the bytes go as base64, which the prefix says.
              return `base64:${c.toBase64(body)}`;
            }
          })
        ), size);
    },
  });
}
