import { SUBSYSTEMS } from "../subsystems/mod.ts";
import { CORE_AREAS } from "../server/config/core_areas.ts";
import { configPath, loadConfigFile } from "../server/config/load.ts";
import { catalogueAreas } from "../server/registry.ts";
import { bootFailureLines, inPhase } from "../server/boot/failure.ts";
import { checkFlags, flagOf, portFlag } from "../server/boot/flags.ts";
import { findClaude } from "../server/workspace/cli.ts";
import { chromiumPath } from "../subsystems/browser/launch.ts";
import { firstOnPath } from "../server/path_kind.ts";
import { directoryMarketplaces, permissionFlags, SERVER_V8_FLAGS } from "./permissions.ts";

/**
 * `deno task start`: reads the config, computes the narrowest Deno permissions that serve it
 * (tools/permissions.ts), and runs main.ts under them, passing signals through. The launcher
 * itself needs only read, env, run and sys; the server never runs with -A.
 */
const args = [...Deno.args];
const path = configPath(flagOf(args, "--config"), (n) => Deno.env.get(n));
const areas = catalogueAreas(CORE_AREAS, SUBSYSTEMS);
let loaded, flagPort, gatewayPort;
try {
  // The same sentences main.ts would say: the flags' words, then the config's (boot/failure.ts).
  [flagPort, gatewayPort] = await inPhase("flags", null, () => {
    checkFlags(args);
    return [portFlag(args, "--port"), portFlag(args, "--gateway-port")];
  });
  loaded = await inPhase("config", null, () => loadConfigFile(path, areas), path);
} catch (err) {
  for (const line of bootFailureLines(err)) console.error(line);
  Deno.exit(1);
}
const repoRoot = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const port = flagPort ?? loaded.config.server.port;
const pathDirs = (Deno.env.get("PATH") ?? "").split(":").filter((d) => d.startsWith("/"));
const flags = permissionFlags({
  config: loaded.config,
  configPath: path,
  port,
  gatewayPort,
  repoRoot,
  claudeBin: findClaude(loaded.config),
  home: Deno.env.get("HOME") ?? "/",
  claudeConfigDir: Deno.env.get("CLAUDE_CONFIG_DIR") ?? null,
  pathDirs,
  // The gh review would run, by its path: none found names none (Deno would refuse it anyway).
  gh: firstOnPath("gh", pathDirs),
  // The one Chromium the browser would start, found now: only it is named, not every PATH dir's.
  chromium: chromiumPath(null),
  pluginSources: directoryMarketplaces([
    Deno.env.get("CLAUDE_CONFIG_DIR") ?? `${Deno.env.get("HOME") ?? "/"}/.claude`,
    ...loaded.config.accounts.flatMap((a) => (a.config_dir ? [a.config_dir] : [])),
  ]),
});
if (flagOf(args, "--config") === null) args.push("--config", path);
if (Deno.env.get("FORGE_PRINT_PERMISSIONS")) {
  console.error(`forge: deno run ${flags.join(" ")} main.ts`);
}
const child = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "--no-prompt",
    `--v8-flags=${SERVER_V8_FLAGS}`,
    ...flags,
    `${repoRoot}/main.ts`,
    ...args,
  ],
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.addSignalListener(signal, () => {
    try {
      child.kill(signal);
    } catch {
      // The child already ended.
    }
  });
}
const status = await child.status;
Deno.exit(status.code);
