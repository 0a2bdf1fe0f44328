import { z } from "zod";
import type { SlackDraft } from "../../protocol/mod.ts";
import {
  defineTool,
  ioWords,
  netWords,
  type ToolHandler,
  toolHandlers,
} from "../../server/subsystem.ts";
import { type Connectors, refuse } from "./context.ts";
import { pickWorkspace, slackCall } from "./slack.ts";
import { approval } from "./slack_post.ts";

const TOOL = "slack__attachment";

/** `slack__attachment`: fetch a shared file (not held), or upload one (held). */
export const SLACK_FILE_TOOLS = [defineTool({
  name: TOOL,
  family: "slack",
  description: "Fetch a Slack file into a directory (`file_id` + `dir`; never overwrites), or " +
    "upload a local file to a conversation (`path` + `conversation`, optional `thread_ts`). " +
    "An upload is HELD: a person approves it before anything is sent.",
  input: z.object({
    file_id: z.string().min(1).optional(),
    dir: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    conversation: z.string().min(1).optional(),
    thread_ts: z.string().min(1).optional(),
    workspace: z.string().min(1).optional(),
  }).strict(),
  roles: ["lead", "worker"],
})] as const;

/** A file name as one path component: no directories, no leading dots, nothing unprintable. */
export function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // deno-lint-ignore no-control-regex -- control characters are what a file name must not carry
  const clean = base.replace(/[\x00-\x1f<>:"|?*]/g, "_").replace(/^\.+/, "").trim();
  return clean.length > 0 ? clean.slice(0, 200) : "attachment";
}

/** `name`, else `name (2).ext`, ... : the first that does not exist, created exclusively. */
async function createFresh(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = 1; n < 1000; n++) {
    const path = `${dir}/${n === 1 ? name : `${stem} (${n})${ext}`}`;
    try {
      await Deno.writeFile(path, bytes, { createNew: true });
      return path;
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  }
  throw new Error(`${dir} already holds 999 files named like ${name}`);
}

export function slackFileTools(c: Connectors, expiryMs: number): Record<string, ToolHandler> {
  return toolHandlers(SLACK_FILE_TOOLS)({
    slack__attachment: async (a, call) => {
      const fetching = a.file_id !== undefined;
      if (fetching === (a.path !== undefined)) {
        throw refuse(
          TOOL,
          "give `file_id` and `dir` to fetch, or `path` and `conversation` to upload",
        );
      }
      const ws = pickWorkspace(c, TOOL, a.workspace);
      const here = (p: string) => (p.startsWith("/") ? p : `${call.seat.cwd}/${p}`);
      if (fetching) {
        if (!a.dir) throw refuse(TOOL, "say which `dir` the file goes to");
        const info = (await slackCall(TOOL, ws, "files.info", { file: a.file_id })).file as {
          name?: string;
          url_private_download?: string;
        };
        if (!info.url_private_download) throw refuse(TOOL, `file ${a.file_id} has no download`);
        const res = await fetch(info.url_private_download, {
          headers: { authorization: `Bearer ${ws.config.token}` },
          signal: call.signal,
        }).catch((err) => {
          throw refuse(TOOL, `Slack's file host could not be reached: ${netWords(err)}`);
        });
        if (!res.ok) {
          await res.body?.cancel();
          throw refuse(TOOL, `Slack's file host answered ${res.status} for ${a.file_id}`);
        }
        const bytes = new Uint8Array(await res.arrayBuffer());
        const path = await createFresh(here(a.dir), safeName(info.name ?? a.file_id!), bytes)
          .catch((err) => {
            throw refuse(
              TOOL,
              err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied
                ? `forge may not write into ${a.dir} (it writes only under its config dir, the ` +
                  "Claude config dirs and /tmp)"
                : `could not write into ${a.dir}: ${ioWords(err)}`,
            );
          });
        return { text: `fetched to ${path}` };
      }
      if (!a.conversation) throw refuse(TOOL, "say which `conversation` the file goes to");
      const path = here(a.path!);
      // A probe: a path that cannot be stat'ed is refused below as not a readable file.
      const stat = await Deno.stat(path).catch(() => null);
      if (!stat?.isFile) throw refuse(TOOL, `${a.path} is not a file forge can read`);
      const name = safeName(path);
      const shown = `[file] ${name}\nfrom ${path}`;
      const draft: SlackDraft = {
        id: crypto.randomUUID(),
        workspace: ws.config.workspace,
        conversation: a.conversation,
        thread_ts: a.thread_ts ?? null,
        action: "upload",
        text: shown,
        parts: [shown],
      };
      return await approval(c, call, draft, expiryMs, async () => {
        const bytes = await Deno.readFile(path);
        const slot = await slackCall(TOOL, ws, "files.getUploadURLExternal", {
          filename: name,
          length: bytes.length,
        });
        const sent = await fetch(String(slot.upload_url), { method: "POST", body: bytes }).catch(
          (err) => {
            throw refuse(TOOL, `the upload could not be sent: ${netWords(err)}`);
          },
        );
        await sent.body?.cancel();
        if (!sent.ok) throw refuse(TOOL, `Slack's upload host answered ${sent.status}`);
        await slackCall(TOOL, ws, "files.completeUploadExternal", {
          files: JSON.stringify([{ id: slot.file_id, title: name }]),
          channel_id: a.conversation,
          ...(a.thread_ts ? { thread_ts: a.thread_ts } : {}),
        });
        return { text: "uploaded" };
      });
    },
  });
}
