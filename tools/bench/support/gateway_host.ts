/**
 * The gateway alone, as its own process, for tools/bench/gateway.ts: loads the forge.toml it is
 * given, starts the account gateway on a free port, binds one seat per project (the way a seat's
 * launch does) and prints `ROUTE <project> <base url>` for each, then `READY`. SIGTERM stops it.
 *   deno run -A tools/bench/support/gateway_host.ts CONFIG
 */
import { CORE_AREAS } from "../../../server/config/core_areas.ts";
import { loadConfigFile } from "../../../server/config/load.ts";
import { Gateway } from "../../../server/gateway/gateway.ts";
import { memoryLogger } from "../../../server/log.ts";
import { catalogueAreas } from "../../../server/registry.ts";
import { SUBSYSTEMS } from "../../../subsystems/mod.ts";

const { config } = await loadConfigFile(Deno.args[0], catalogueAreas(CORE_AREAS, SUBSYSTEMS));
const gateway = new Gateway({ log: memoryLogger(), config: () => config, emit: () => {}, port: 0 });
await gateway.start();
for (const project of config.orgs.flatMap((o) => o.projects)) {
  const launch = gateway.launch(
    { org: project.org, project: project.name, label: "lead" },
    project,
  );
  console.log(`ROUTE ${project.name} ${launch?.baseUrl}`);
}
console.log("READY");
Deno.addSignalListener("SIGTERM", async () => {
  await gateway.stop();
  Deno.exit(0);
});
