import type { ForgeConfig } from "../config/types.ts";
import { firstOnPath, isExecutableSync } from "../path_kind.ts";

/**
 * Finds the `claude` binary: `[claude] path`, else `$FORGE_CLAUDE_BIN` (the pinned toolchain's,
 * set by tools/deno.sh), else the first `claude` on PATH. Null when none is found. `env` is the
 * process's unless a caller reads another.
 */
export function findClaude(
  config: ForgeConfig,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): string | null {
  if (config.claude.path) return config.claude.path;
  const pinned = env("FORGE_CLAUDE_BIN");
  if (pinned && isExecutableSync(pinned)) return pinned;
  return firstOnPath("claude", (env("PATH") ?? "").split(":"), isExecutableSync);
}

/** `claude --version`'s number (`2.1.332`), or null when it cannot be read. */
export async function readCliVersion(binary: string | null): Promise<string | null> {
  if (!binary) return null;
  try {
    const out = await new Deno.Command(binary, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
      env: { DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    return /(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? null;
  } catch {
    // No version to show (home says unknown); a CLI that will not run fails its seat in words.
    return null;
  }
}
