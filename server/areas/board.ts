import type { Wire } from "../../protocol/mod.ts";
import { type Host, subjectArea } from "../subsystem.ts";

/**
 * The board subject: every project's rows, schedules and connector sets. spec: What a subject
 * carries > board. Tasks, crons and connectors have no producer yet, so each project answers its
 * identity with empty sets: the subject exists and its shape is the spec's.
 */
export const boardArea = subjectArea(
  "board",
  "the task board: rows, schedules and connector sets per project",
  "board",
  (host) => boardSnapshot(host),
);

function boardSnapshot(host: Host): Wire {
  return {
    projects: host.workspace.projects().map((p) => ({
      project: { org: p.org, name: p.name },
      rows: [],
      crons: [],
      connectors: { gotify: [], slack: [] },
    })),
  };
}
