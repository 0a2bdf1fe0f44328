import { assertEquals } from "../../../../tests/assert.ts";
import type { CatalogRow, HomeProject } from "../../../../protocol/mod.ts";
import { earlierSessions, resumeCommand } from "./seat_resume.ts";

const lead = { org: "Acme", project: "alpha", label: "lead" };
const row = (id: string, secs: number): CatalogRow => ({
  session_id: id,
  last_activity: { secs_since_epoch: secs, nanos_since_epoch: 0 },
  cwd: "/p/alpha",
});
const project = (org: string, name: string, sessions: CatalogRow[]) =>
  ({ project: { org, name, sessions } }) as unknown as HomeProject;
const HOME = [
  project("Acme", "beta", [row("b1", 9)]),
  project("Acme", "alpha", [row("old", 1), row("now", 5), row("newer", 3)]),
];

Deno.test("seat resume: the project's earlier sessions, newest first, the held one left out", () => {
  assertEquals(earlierSessions(HOME, lead, "now").map((r) => r.session_id), ["newer", "old"]);
  assertEquals(earlierSessions(HOME, lead, null).map((r) => r.session_id), [
    "now",
    "newer",
    "old",
  ]);
});

Deno.test("seat resume: a worker and an unknown project are offered none", () => {
  assertEquals(earlierSessions(HOME, { ...lead, label: "w1" }, null), []);
  assertEquals(earlierSessions(HOME, { ...lead, project: "gone" }, null), []);
});

Deno.test("seat resume: the command names the session and the directory it ran in", () => {
  assertEquals(resumeCommand(lead, row("old", 1)), {
    resume_session: { key: lead, session_id: "old", cwd: "/p/alpha", launch_settings: {} },
  });
});
