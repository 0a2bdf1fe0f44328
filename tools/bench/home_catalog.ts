/**
 * Home catalog bench: what a project's transcript catalog (home > projects > project.sessions,
 * home > projects) adds to a home read, for a project with many transcripts.
 *
 *   tools/deno.sh run --allow-all tools/bench/home_catalog.ts [--transcripts 2000] [--runs 15]
 *
 * One generated config dir, two arms paired and interleaved on it:
 *  - fresh: the listing forgotten first, so the folder is read and every transcript stat'ed
 *    (what each home read would pay with no reuse);
 *  - reused: a read inside the reuse window with the folder unchanged (what a home read pays
 *    on the fleet updates that follow one another).
 * Each arm prints its median and range, and the rows it returned.
 */
import type { ForgeConfig, ProjectConfig } from "../../server/config/types.ts";
import { clearCatalogCache, projectCatalog } from "../../server/areas/project_catalog.ts";
import { numberFlag } from "./support/flags.ts";

const TRANSCRIPTS = numberFlag("transcripts", 2000);
const RUNS = numberFlag("runs", 15);

const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "forge-bench-catalog-" }));
try {
  const path = `${root}/proj`;
  await Deno.mkdir(path);
  const folder = `${root}/cfg/projects/${path.replace(/[^A-Za-z0-9]/g, "-")}`;
  await Deno.mkdir(folder, { recursive: true });
  for (let i = 0; i < TRANSCRIPTS; i++) await Deno.writeTextFile(`${folder}/s${i}.jsonl`, "{}\n");
  const config = {
    accounts: [{ display_name: "A", config_dir: `${root}/cfg` }],
    orgs: [{ name: "Acme", accounts: ["A"], fallback_accounts: [] }],
  } as unknown as ForgeConfig;
  const project = { org: "Acme", name: "proj", path } as ProjectConfig;
  const arms: Record<"fresh" | "reused", number[]> = { fresh: [], reused: [] };
  let rows = 0;
  for (let run = 0; run < RUNS; run++) {
    clearCatalogCache();
    let t = performance.now();
    rows = (await projectCatalog(config, project)).length;
    arms.fresh.push(performance.now() - t);
    t = performance.now();
    await projectCatalog(config, project);
    arms.reused.push(performance.now() - t);
  }
  for (const [arm, times] of Object.entries(arms)) {
    times.sort((a, b) => a - b);
    const med = times[Math.floor(times.length / 2)];
    console.log(
      `${arm.padEnd(6)} ${TRANSCRIPTS} transcripts: median ${med.toFixed(2)} ms, range ${
        times[0].toFixed(2)
      }-${times.at(-1)!.toFixed(2)} ms, ${rows} rows`,
    );
  }
} finally {
  await Deno.remove(root, { recursive: true });
}
