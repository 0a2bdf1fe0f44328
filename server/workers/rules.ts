import {
  type LaunchSettings,
  MCP_FAMILIES,
  type McpFamily,
  type Slot,
} from "../../protocol/mod.ts";
import type { ProjectConfig } from "../config/types.ts";
import { Refusal } from "../subsystem.ts";
import { LEAD_LABEL } from "../workspace/workspace.ts";
import { branchOf } from "./git.ts";

/**
 * The rules a worker's spawn is checked against before anything is made (the original forge's
 * agents__spawn): each broken rule is refused in forge's own words.
 */

/** What a spawn asks for, already checked for shape (the tool's or the command's schema). */
export interface SpawnRequest {
  project: ProjectConfig;
  label: string;
  charter: string;
  spawnedBy: Slot;
  kick: string | null;
  resumeKick: string | null;
  interactive: boolean;
  families: McpFamily[] | null;
  /** Resume the label's prior session when there is one. */
  resume: boolean;
  fromBoot: boolean;
  launch?: LaunchSettings;
}

/** A label names a git branch (`worktree-<label>`) and a directory: a conservative spelling. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The label, trimmed, or a refusal naming what is wrong with it. */
export function checkLabel(what: string, raw: string): string {
  const label = raw.trim();
  if (!label) throw new Refusal(what, `${what}: a worker's label is empty`);
  if (label === LEAD_LABEL) {
    throw new Refusal(what, `${what}: \`lead\` is reserved for the project's own agent`);
  }
  if (!LABEL.test(label)) {
    throw new Refusal(
      what,
      `${what}: label \`${label}\` must be letters, digits, \`_\` or \`-\` (at most 63, starting ` +
        `with a letter or digit): it names the branch ${branchOf("<label>")} and a directory`,
    );
  }
  return label;
}

/** A text that must hold something once trimmed. */
export function checkText(what: string, field: string, raw: string): string {
  const text = raw.trim();
  if (!text) throw new Refusal(what, `${what}: ${field} is empty`);
  return text;
}

/**
 * `mcp_families` in its canonical stored form (the original forge's family selection):
 * deduplicated, in wire order, an empty list meaning every family (null). The always-on families
 * and unknown names refused.
 */
export function checkFamilies(what: string, raw: readonly string[] | null | undefined) {
  if (raw === null || raw === undefined) return null;
  for (const name of raw) {
    if (name === "agents") {
      throw new Refusal(what, `${what}: agents is always on for every worker, cannot be listed`);
    }
    if (name === "browser") {
      throw new Refusal(what, `${what}: browser is always on for every session, cannot be listed`);
    }
    if (!(MCP_FAMILIES as readonly string[]).includes(name)) {
      throw new Refusal(
        what,
        `${what}: \`${name}\` is not a tool family a worker can be given; pick from ${
          MCP_FAMILIES.join(", ")
        }`,
      );
    }
  }
  const picked = MCP_FAMILIES.filter((f) => raw.includes(f));
  return picked.length === 0 ? null : picked as McpFamily[];
}

/** The project a worker command names: its name, or `org/name` when two orgs share a name. */
export function findProject(
  what: string,
  projects: ProjectConfig[],
  key: string,
): ProjectConfig {
  const matches = projects.filter((p) => p.name === key || `${p.org}/${p.name}` === key);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new Refusal(what, `${what}: two orgs have a project \`${key}\`; name it as org/name`);
  }
  throw new Refusal(
    what,
    `${what}: no project is named \`${key}\`; configured: ${
      projects.map((p) => `${p.org}/${p.name}`).join(", ") || "none"
    }`,
  );
}

/** The lines a worker's prompt gets for each family it was not given, as the original's does. */
const WITHHELD: Record<McpFamily, string> = {
  review: "You have no review tools: ask your lead to relay review findings or post replies.",
  cron: "You cannot schedule durable work: ask your lead to schedule it.",
  tasks: "The task list is not yours to edit: report your status to your lead.",
  gotify: "Notifications do not reach you: your lead carries the urgent ones.",
  slack: "Channel reads and posts go through your lead.",
  systemone: "Route material, non-obvious decisions to your lead instead of guessing.",
};

/** A worker's system-prompt addition: who it is, where it works, its withheld families, its charter. */
export function workerPrompt(
  slot: Slot,
  worktree: string,
  families: readonly McpFamily[] | null,
  charter: string,
): string {
  const withheld = families === null ? [] : MCP_FAMILIES.filter((f) => !families.includes(f));
  return [
    "# You are a worker",
    `You are the worker \`${slot.label}\` of project ${slot.project} (org ${slot.org}), spawned ` +
    `by the project's lead. You run in your own git worktree at ${worktree}, on the branch ` +
    `${branchOf(slot.label)} made from the lead's HEAD: commit your work there. Tell your lead ` +
    `what you did with agents__send_message (org ${slot.org}, project ${slot.project}): it ` +
    `reaches the lead as a message, and the lead merges your branch.`,
    ...withheld.map((f) => WITHHELD[f]),
    "# Your charter",
    charter,
  ].join("\n\n");
}

/** The launch a worker's CLI starts with: the request's own settings, the worker's prompt
 * (workerPrompt) as its charter, and AskUserQuestion withheld unless the worker is interactive
 * (as the original's agents__spawn; fixed at spawn). */
export function workerLaunch(
  slot: Slot,
  worktree: string,
  req: SpawnRequest,
  charter: string,
): LaunchSettings {
  return {
    ...req.launch,
    charter: workerPrompt(slot, worktree, req.families, charter),
    extra_args: [
      ...(req.launch?.extra_args ?? []),
      ...(req.interactive ? [] : [["disallowedTools", "AskUserQuestion"] as [string, string]]),
    ],
  };
}
