import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { settingsGuard } from "./guards.ts";

const base =
  `[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n[[accounts]]\ndisplay_name = "B"\nprovider = "anthropic"\n` +
  `[[orgs]]\nname = "Acme"\naccounts = ["A"]\n[[orgs.projects]]\nname = "proj"\npath = "/p"\n[[orgs.projects]]\nname = "side"\npath = "/s"\n`;
const fleet = (projects: string[] = [], accounts: string[] = []) => ({
  liveProjects: () => new Set(projects),
  liveAccounts: () => new Set(accounts),
});

Deno.test("a project with a live seat cannot be removed or renamed", () => {
  const renamed = base.replace('name = "proj"', 'name = "proj2"');
  assertMatch(settingsGuard(base, renamed, fleet(["proj"]))!, /project `proj` has a live seat/);
  assertEquals(settingsGuard(base, renamed, fleet([])), null);
  const removed = base.replace('[[orgs.projects]]\nname = "side"\npath = "/s"\n', "");
  assertEquals(settingsGuard(base, removed, fleet(["proj"])), null);
});

Deno.test("an org with projects cannot be removed; an account an org binds cannot be removed", () => {
  const noOrg = base.slice(0, base.indexOf("[[orgs]]"));
  assertMatch(settingsGuard(base, noOrg, fleet())!, /org `Acme` still has projects \(proj, side\)/);
  const noA = base.replace('[[accounts]]\ndisplay_name = "A"\nprovider = "anthropic"\n', "")
    .replace('accounts = ["A"]', 'accounts = ["B"]');
  assertMatch(settingsGuard(base, noA, fleet())!, /account `A` is bound by org `Acme`/);
  const noB = base.replace('[[accounts]]\ndisplay_name = "B"\nprovider = "anthropic"\n', "");
  assertEquals(settingsGuard(base, noB, fleet()), null);
  assertMatch(settingsGuard(base, noB, fleet([], ["B"]))!, /account `B` has live seats/);
});
