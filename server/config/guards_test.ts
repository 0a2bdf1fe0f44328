import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { catalogueAreas } from "../registry.ts";
import { CORE_AREAS } from "./core_areas.ts";
import { fingerprint } from "./fingerprint.ts";
import { settingsGuard } from "./guards.ts";
import { loadConfigText } from "./load.ts";
import { saveSettings } from "./write/writer.ts";

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

// spec: Editing the config ("refused (a guard declined it, naming what it found)"):
// the guards run before the loader, so removing an account an org binds is refused by the guard
// by name, not answered `invalid` because the org now names an account nobody declares.
Deno.test("save order: the guard refuses by name before the loader calls the file invalid", async () => {
  const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
  const dir = await Deno.makeTempDir({ prefix: "forge-guard-" });
  try {
    const path = `${dir}/forge.toml`;
    await Deno.writeTextFile(path, base);
    const result = await saveSettings({
      path,
      fingerprint: fingerprint(base),
      edits: [{ area: "accounts", key_path: "accounts.A", pattern: "", op: "remove" }],
      validate: (text) => {
        try {
          loadConfigText(text, path, areas);
          return null;
        } catch (err) {
          return (err as Error).message;
        }
      },
      guard: (before, after) => settingsGuard(before, after, fleet()),
    });
    assertEquals(result, {
      ok: false,
      reason: "refused",
      message: "account `A` is bound by org `Acme`; unbind it first",
      key_path: "accounts.A",
    });
    assertEquals(await Deno.readTextFile(path), base);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
