#!/usr/bin/env bash
# Runs the pinned Deno, installing the toolchain (Deno and the Claude Code CLI, both from npm) on
# first use and again whenever the installed tree no longer matches tools/toolchain/package-lock.json
# (a checkout that moved a pin). A fresh machine needs only Node and npm: `tools/deno.sh task start`.
# FORGE_TOOLCHAIN_DRY_RUN=1 prints the decision ("current", or "reinstall: why") and stops there:
# nothing is installed and nothing runs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
chain="$here/toolchain"
# npm links both for the machine's platform: the deno package's install points .bin/deno at its
# native binary, and the CLI's bin is its native binary.
deno_bin="$chain/node_modules/.bin/deno"
claude_bin="$chain/node_modules/.bin/claude"

# The first pinned package whose version in the lock differs from npm's record of what it installed
# (node_modules/.package-lock.json, the same shape), as "name installed locked"; nothing when both
# agree. One awk over two small files: this runs before every command.
first_mismatch() {
  awk -v names="deno @anthropic-ai/claude-code" '
    FNR == 1 { file = FILENAME == ARGV[1] ? 1 : 2; found = 0 }
    { match($0, /^ */); indent = RLENGTH; line = substr($0, indent + 1) }
    !found && line ~ /^"node_modules\/.*": \{$/ {
      split(line, part, "\""); name = substr(part[2], 14); found = 1; at = indent; next
    }
    found && indent == at && line ~ /^}/ { found = 0; next }
    found && indent > at && line ~ /^"version": "/ { split(line, part, "\""); version[file, name] = part[4] }
    END {
      n = split(names, wanted, " ")
      for (i = 1; i <= n; i++) {
        have = version[2, wanted[i]]; want = version[1, wanted[i]]
        if (have != want) { print wanted[i], (have == "" ? "(none)" : have), (want == "" ? "(none)" : want); exit }
      }
    }
  ' "$chain/package-lock.json" "$chain/node_modules/.package-lock.json" 2>/dev/null || true
}

# Sets decision to "current", or to "reinstall: " and why. No subshell beyond the one awk.
decide() {
  decision="current"
  if [ ! -f "$chain/node_modules/.package-lock.json" ]; then
    decision="reinstall: nothing is installed yet"
    return
  fi
  local mismatch
  mismatch="$(first_mismatch)"
  if [ -n "$mismatch" ]; then
    set -- $mismatch
    decision="reinstall: $1 $2 is installed, the lock pins $3"
  elif [ ! -x "$deno_bin" ] || [ ! -x "$claude_bin" ]; then
    decision="reinstall: node_modules/.bin has no runnable deno or claude"
  fi
}

decide
if [ -n "${FORGE_TOOLCHAIN_DRY_RUN:-}" ]; then
  echo "$decision"
  exit 0
fi
if [ "$decision" != "current" ]; then
  echo "forge: installing the pinned toolchain (deno, claude) with npm ci (${decision#reinstall: })..." >&2
  (cd "$chain" && npm ci --no-audit --no-fund --loglevel=error >&2)
  decide
  if [ "$decision" != "current" ]; then
    echo "forge: npm ci finished but the toolchain still does not match the lock (${decision#reinstall: })" >&2
    exit 1
  fi
fi
# The seats' CLI: the pinned binary, unless the caller names another.
export FORGE_CLAUDE_BIN="${FORGE_CLAUDE_BIN:-$claude_bin}"
exec "$deno_bin" "$@"
