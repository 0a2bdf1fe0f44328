import { SUBSYSTEMS } from "../../subsystems/mod.ts";
import { type BuildInfo, buildInfo } from "../build_info.ts";
import { CORE_AREAS } from "../config/core_areas.ts";
import { logSecrets } from "../config/secrets.ts";
import { ConfigStore } from "../config/store.ts";
import { createLogger, type Logger } from "../log.ts";
import { catalogueAreas } from "../registry.ts";
import type { ServerOptions } from "./options.ts";

/** What the config phase leaves: where the config lives, the log beside it, the loaded config. */
export interface ConfigPhase {
  configDir: string;
  log: Logger;
  build: BuildInfo;
  store: ConfigStore;
}

/** The folder a config file lives in: forge.log and the state dir go beside it. */
export function configDirOf(configPath: string): string {
  return configPath.replace(/\/[^/]*$/, "") || ".";
}

/**
 * Phase 1, config: the config's folder (made if missing), `forge.log` beside it, and the file
 * loaded through the key catalogue. The catalogue is the core keys and the subsystems' areas; a
 * core area declares no config area of its own, so it is not needed here.
 */
export async function configPhase(opts: ServerOptions): Promise<ConfigPhase> {
  const configDir = configDirOf(opts.configPath);
  await Deno.mkdir(configDir, { recursive: true });
  // The log takes the secrets of the config in force out of every record, from the first one
  // after the config loads (a load refused names keys, never values).
  let store: ConfigStore | null = null;
  const log = opts.log ?? createLogger({
    file: `${configDir}/forge.log`,
    secrets: logSecrets(() => store?.config ?? null),
  });
  opts.guard?.(log);
  const build = await buildInfo();
  store = await ConfigStore.open(
    opts.configPath,
    catalogueAreas(CORE_AREAS, [...SUBSYSTEMS, ...(opts.extra ?? [])]),
    build.forge_version_short,
    log,
  );
  return { configDir, log, build, store };
}
