import { z } from "zod";
import { MCP_FAMILIES, type Slot } from "../../protocol/mod.ts";
import { defineTool, type ToolCall, type ToolHandler, toolHandlers } from "../subsystem.ts";
import type { WorkerRecord } from "./book.ts";
import { checkFamilies, checkLabel, checkText } from "./rules.ts";
import type { Workers } from "./workers.ts";

// The lead-only `agents` verbs (the original forge's family): a lead spawns, despawns, updates and
// counts its workers. A worker never lists them (roles: lead), so it cannot spawn workers of its
// own.

const families = z.array(z.string()).describe(
  `tool families the worker gets beyond the always-on agents and browser: any of ${
    MCP_FAMILIES.join(", ")
  }; omitted or [] = all`,
);

export const WORKER_TOOLS = [
  defineTool({
    name: "agents__spawn",
    family: "agents",
    description:
      "Spawn a worker: a new Claude Code session in its own git worktree of this project, on " +
      "branch worktree-<label> made from your HEAD. `charter` becomes its standing " +
      "instructions, `kick` its first message. Workers are durable: after a forge restart they " +
      "resume their session and are told to continue (or given `resume_kick`). One live " +
      "worker per label; the project's max_workers caps how many run. Answers the session id " +
      "and the worktree path.",
    input: z.object({
      label: z.string().describe("the worker's name: letters, digits, _ or -; not `lead`"),
      charter: z.string().describe("what the worker is for (its system-prompt addition)"),
      kick: z.string().optional().describe("the worker's first user turn"),
      resume_kick: z.string().optional().describe("what a resumed worker is told"),
      interactive: z.boolean().optional().describe("keep AskUserQuestion (fixed at spawn)"),
      resume_session: z.boolean().optional().describe(
        "resume the label's prior session (and recreate a gone worktree)",
      ),
      mcp_families: families.optional(),
    }).strict(),
    roles: ["lead"],
  }),
  defineTool({
    name: "agents__despawn",
    family: "agents",
    description:
      "End a worker and remove its worktree. Uncommitted, untracked or unpushed work blocks " +
      "the despawn with the reason unless `force`. Its branch worktree-<label> is deleted " +
      "only when every commit on it is reachable from another branch, tag or remote; " +
      "warnings say what was left.",
    input: z.object({
      label: z.string(),
      force: z.boolean().optional().describe("discard unsaved work"),
    }).strict(),
    roles: ["lead"],
  }),
  defineTool({
    name: "agents__update",
    family: "agents",
    description:
      "Change a worker's stored charter, kick, resume_kick or mcp_families; takes effect on " +
      "its next respawn. Never creates a worker. mcp_families: [] resets to all.",
    input: z.object({
      label: z.string(),
      charter: z.string().optional(),
      kick: z.string().optional(),
      resume_kick: z.string().optional(),
      mcp_families: families.optional(),
    }).strict(),
    roles: ["lead"],
  }),
  defineTool({
    name: "agents__capacity",
    family: "agents",
    description:
      "How many workers this project may run (max_workers), how many are live, and how many " +
      "more can be spawned now.",
    input: z.object({}).strict(),
    roles: ["lead"],
    readOnly: true,
  }),
] as const;

const json = (value: unknown) => Promise.resolve({ text: JSON.stringify(value, null, 1) });

/** The handlers, over the workers of the calling lead's project. */
export function workerTools(workers: Workers): Record<string, ToolHandler> {
  const projectOf = (call: ToolCall) =>
    workers.project("agents", `${call.seat.slot.org}/${call.seat.slot.project}`);
  return toolHandlers(WORKER_TOOLS)({
    agents__spawn: async (i, call) => {
      const project = projectOf(call);
      const slot = { ...call.seat.slot, label: i.label.trim() };
      const stored = workers.record(slot);
      const reply = await workers.spawn({
        project,
        label: i.label,
        charter: i.charter,
        spawnedBy: call.seat.slot,
        kick: i.kick ?? null,
        resumeKick: i.resume_kick ?? null,
        interactive: i.interactive ?? false,
        // As in the original forge: a re-spawn that states none keeps the stored selection.
        families: i.mcp_families === undefined
          ? (stored?.mcp_families ?? null)
          : checkFamilies("agents__spawn", i.mcp_families),
        resume: i.resume_session === true,
        fromBoot: false,
      });
      return json({
        session_id: reply.session_id,
        tag: reply.tag,
        session: reply.session_choice === "resumed"
          ? "resumed the label's prior session"
          : reply.session_choice === "fresh"
          ? "started a new session (resume_session was not set)"
          : "started a new session: no prior session found for this label",
        worktree: reply.worktree,
        ...(reply.mcp_families ? { mcp_families: reply.mcp_families } : {}),
        ...(reply.durability_warning ? { durability_warning: reply.durability_warning } : {}),
      });
    },
    agents__despawn: async (i, call) => {
      const result = await workers.despawn(projectOf(call), i.label, i.force ?? false);
      if (result === "not_found") {
        return {
          text: `agents__despawn: ${call.seat.slot.project} has no worker labelled \`${i.label}\``,
          isError: true,
        };
      }
      if ("blocked" in result) return json({ status: "blocked", ...result.blocked });
      if ("failed" in result) return { text: result.failed.reason, isError: true };
      return json({ status: "despawned", ...result.despawned });
    },
    agents__update: async (i, call) => {
      const what = "agents__update";
      const label = checkLabel(what, i.label);
      const fields: Partial<WorkerRecord> = {};
      for (const f of ["charter", "kick", "resume_kick"] as const) {
        const value = i[f];
        if (typeof value === "string") fields[f] = checkText(what, f, value);
      }
      if (i.mcp_families) fields.mcp_families = checkFamilies(what, i.mcp_families);
      const updated = Object.keys(fields);
      if (updated.length === 0) {
        return {
          text: `${what}: name at least one of charter, kick, resume_kick, mcp_families`,
          isError: true,
        };
      }
      const slot: Slot = { ...call.seat.slot, label };
      await workers.update(slot, fields);
      return json({ label, updated });
    },
    agents__capacity: (_input, call) => {
      const project = projectOf(call);
      return json({ ...workers.capacity(project), cap_source: "max_workers" });
    },
  });
}
