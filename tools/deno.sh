#!/usr/bin/env bash
# Runs the pinned Deno, installing the toolchain (Deno and the Claude Code CLI, both from
# npm) on first use. A fresh machine needs only Node and npm: `tools/deno.sh task start`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
chain="$here/toolchain"
deno_bin="$chain/node_modules/@deno/linux-x64-glibc/deno"
claude_bin="$chain/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
if [ ! -x "$deno_bin" ] || [ ! -x "$claude_bin" ]; then
  echo "forge: installing the pinned toolchain (deno, claude) with npm..." >&2
  (cd "$chain" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
# The seats' CLI: the pinned binary, unless the caller names another.
export FORGE_CLAUDE_BIN="${FORGE_CLAUDE_BIN:-$claude_bin}"
exec "$deno_bin" "$@"
