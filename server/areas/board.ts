import type { Wire } from "../../protocol/mod.ts";
import { defineSubsystem, type Host } from "../subsystem.ts";

/**
 * The board subject: every project's rows, schedules and connector sets. spec: What a subject
 * carries > board. Tasks, crons and connectors have no producer yet, so each project answers its
 * identity with empty sets: the subject exists and its shape is the spec's.
 */
export const boardArea = defineSubsystem({
  id: "board",
  note: "the task board: rows, schedules and connector sets per project",
  switch: null,
  area: null,
  verbs: [],
  commands: [],
  subjects: ["board"],
  binary: [],
  load: () =>
    Promise.resolve({
      create: (host: Host) => ({
        verbs: {},
        commands: {},
        subjects: { board: () => Promise.resolve(boardSnapshot(host)) },
      }),
    }),
});

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
