import { z } from "zod";
import { defineTool, type ToolHandlerOf } from "../../server/subsystem.ts";

const roles = ["lead", "worker"] as const;

/** The handler of one of these tools, its input typed by that tool's schema. */
export type AgentToolHandler<N extends number> = ToolHandlerOf<typeof AGENT_TOOLS[N]["input"]>;

/** The agents family's tools. */
export const AGENT_TOOLS = [
  defineTool({
    name: "agents__whoami",
    family: "agents",
    description:
      "Who you are to forge: your slot (org, project, label), role, project path, working " +
      "directory and session id.",
    input: z.object({}).strict(),
    roles,
    readOnly: true,
  }),
  defineTool({
    name: "agents__list",
    family: "agents",
    description:
      "The seats forge runs: every project's lead (label `lead`) and the other seats of your " +
      "own project, each with its slot, lifecycle (Sleeping, Spawning, Idle, Running, " +
      "Attention, Failed) and working directory. List first, then hand work on another " +
      "project to that project's lead rather than changing its tree yourself.",
    input: z.object({
      project: z.string().optional().describe("only this project (exact name)"),
    }).strict(),
    roles,
    readOnly: true,
  }),
  defineTool({
    name: "agents__send_message",
    family: "agents",
    description:
      "Send a message to another project's lead: it arrives as a new user turn wrapped in a " +
      "[Message ...] envelope naming you. A sleeping lead is woken first. There is no reply " +
      "verb: the other agent answers by sending you a message. Returns once forge handed the " +
      "message over, or the reason it could not.",
    input: z.object({
      project: z.string().min(1).describe("the project whose lead you write to"),
      org: z.string().optional().describe("its org; defaults to yours"),
      message: z.string().min(1),
    }).strict(),
    roles,
  }),
] as const;
