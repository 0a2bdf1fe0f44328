import type { ForgeConfig } from "../config/types.ts";
import { isExecutableSync } from "../path_kind.ts";

/**
 * Finds the `claude` binary: `[claude] path`, else `$FORGE_CLAUDE_BIN` (the pinned toolchain's,
 * set by tools/deno.sh), else the first `claude` on PATH. Null when none is found.
 */
export function findClaude(config: ForgeConfig): string | null {
  if (config.claude.path) return config.claude.path;
  const pinned = Deno.env.get("FORGE_CLAUDE_BIN");
  if (pinned && isExecutableSync(pinned)) return pinned;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir && isExecutableSync(`${dir}/claude`)) return `${dir}/claude`;
  }
  return null;
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
