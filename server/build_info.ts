import { FORGE_RELEASE } from "../protocol/mod.ts";

/** Which build serves the socket: `0.1.0 · abc1234` and `0.1.0+abc1234`. spec: The greeting. */
export interface BuildInfo {
  forge_version: string;
  forge_version_short: string;
}

/**
 * The build stamp: `$FORGE_BUILD_SHA` (set by the compile task), else the source checkout's own
 * short commit, else `unknown`.
 */
export async function buildInfo(): Promise<BuildInfo> {
  let sha = Deno.env.get("FORGE_BUILD_SHA") ?? null;
  if (!sha) {
    try {
      const here = new URL(".", import.meta.url);
      if (here.protocol === "file:") {
        const out = await new Deno.Command("git", {
          args: ["-C", here.pathname, "rev-parse", "--short=7", "HEAD"],
          stdout: "piped",
          stderr: "null",
        }).output();
        if (out.code === 0) sha = new TextDecoder().decode(out.stdout).trim();
      }
    } catch {
      // No git, or not a checkout: the stamp says so.
    }
  }
  const stamp = sha ?? "unknown";
  return {
    forge_version: `${FORGE_RELEASE} · ${stamp}`,
    forge_version_short: `${FORGE_RELEASE}+${stamp}`,
  };
}
