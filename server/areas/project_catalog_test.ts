import { assertEquals } from "../../tests/assert.ts";
import type { ForgeConfig, ProjectConfig } from "../config/types.ts";
import { catalogRows } from "./home.ts";
import { CATALOG_CAP, projectCatalog } from "./project_catalog.ts";

// spec: home > projects > project.sessions is the project's transcript catalog, newest
// first, read under each config dir its org's accounts run with.
Deno.test("a project's catalog lists its transcripts newest first, capped, under the account's dir", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  try {
    const path = `${root}/proj`;
    await Deno.mkdir(path);
    const folder = `${root}/cfg/projects/${path.replace(/[^A-Za-z0-9]/g, "-")}`;
    await Deno.mkdir(folder, { recursive: true });
    for (let i = 0; i < CATALOG_CAP + 2; i++) {
      const file = `${folder}/s${i}.jsonl`;
      await Deno.writeTextFile(file, "{}\n");
      await Deno.utime(file, 1_700_000_000 + i, 1_700_000_000 + i);
    }
    await Deno.writeTextFile(`${folder}/notes.txt`, "not a transcript");
    const project = { org: "Acme", name: "proj", path } as ProjectConfig;
    const config = {
      accounts: [{ display_name: "A", config_dir: `${root}/cfg` }],
      orgs: [{ name: "Acme", accounts: ["A"], fallback_accounts: [] }],
    } as unknown as ForgeConfig;
    const rows = await projectCatalog(config, project) as {
      session_id: string;
      last_activity: { secs_since_epoch: number };
      cwd: string;
    }[];
    assertEquals(rows.length, CATALOG_CAP);
    assertEquals(rows[0].session_id, `s${CATALOG_CAP + 1}`);
    assertEquals(rows[0].last_activity.secs_since_epoch, 1_700_000_000 + CATALOG_CAP + 1);
    assertEquals(rows[0].cwd, path);
    // A home of many projects carries each one's newest rows only (home.ts catalogRows).
    const newest = await projectCatalog(config, project, { cap: catalogRows(200) });
    assertEquals(newest.map((r) => (r as { session_id: string }).session_id), [
      `s${CATALOG_CAP + 1}`,
    ]);
    assertEquals(catalogRows(1), CATALOG_CAP);
    assertEquals(catalogRows(10), 20);
    // A project nothing ran in has an empty catalog.
    const empty = await projectCatalog(config, { ...project, path: root });
    assertEquals(empty, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
