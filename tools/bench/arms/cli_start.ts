/**
 * The crash soak's floor beside each outage fire: the real claude CLI started bare against the
 * same fake API - no forge, no session to resume, no MCP server - timed from its spawn to its
 * answer to `initialize`. A fire cannot land before the woken lead's CLI has answered (forge
 * hands a delivery over only then), so this is what the machine alone takes, at that moment,
 * before any fire can land.
 */
import { spawnOfflineCli } from "../../../tests/claude_support.ts";

/** Starts CLIs in a temp dir of their own; `dispose` removes it. */
export async function cliStartArm(): Promise<{
  /** One bare start against `apiUrl`, spawn to `initialize` answered, in ms; the CLI is gone after. */
  time(apiUrl: string): Promise<number>;
  dispose(): Promise<void>;
}> {
  const dir = await Deno.makeTempDir({ prefix: "forge-bench-cli-start-" });
  const world = {
    home: `${dir}/home`,
    configDir: `${dir}/config`,
    tmpDir: `${dir}/tmp`,
    cwd: `${dir}/cwd`,
  };
  for (const d of Object.values(world)) await Deno.mkdir(d, { recursive: true });
  return {
    async time(apiUrl) {
      const t0 = performance.now();
      const cli = spawnOfflineCli(world, apiUrl);
      try {
        await cli.initialize({}, 120_000);
        return performance.now() - t0;
      } finally {
        await cli.close();
      }
    },
    dispose: () => Deno.remove(dir, { recursive: true }),
  };
}
