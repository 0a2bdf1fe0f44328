/**
 * The `sh` stub at the head of a `task package` file. The payload (a compressed tar of the pinned
 * `deno`, the app and its `node_modules/`) follows it byte for byte; the stub extracts it once
 * into a cache dir named by the payload's hash, then runs forge's launcher with the Deno it
 * carries, so a second start is a plain `exec`. No network, no install.
 */

export interface StubFacts {
  /** The payload's SHA-256, hex: the cache dir's name, so a new build never reuses an old tree. */
  hash: string;
  /** The build stamp the greeting shows (no `.git` travels in the file). */
  sha: string;
  /** How the payload is compressed: `zstd` (smaller, faster) or `gzip` (on every machine). */
  compression: "zstd" | "gzip";
  /** The V8 flags the launcher's server runs with are the launcher's own; these run the launcher. */
  launcherFlags: string[];
}

/** Width of the offset field: the stub's length is written into itself, so it is fixed. */
const OFFSET_DIGITS = 10;

/** The stub's text, ending in a newline, with the payload starting right after it. */
export function stub(facts: StubFacts): string {
  const text = (offset: string) => stubText(facts, offset);
  const length = new TextEncoder().encode(text("0".repeat(OFFSET_DIGITS))).length;
  // `tail -c +N` counts from 1: the payload's first byte is the one after the stub.
  return text(String(length + 1).padStart(OFFSET_DIGITS, "0"));
}

function stubText(f: StubFacts, offset: string): string {
  const decompress = f.compression === "zstd" ? "zstd -dcq" : "gzip -dc";
  const needs = f.compression === "zstd" ? "sh, tail, tar and zstd" : "sh, tail, tar and gzip";
  return `#!/bin/sh
# forge ${f.sha}: one self-contained file (the pinned Deno, the app and its npm packages).
# It extracts itself once into a cache dir named by its payload's hash, then runs forge's
# launcher. It needs ${needs}; the claude CLI is not inside (\`[claude] path\`, else PATH).
set -eu
hash=${f.hash}
skip=${offset}
root="\${FORGE_CACHE_DIR:-\${XDG_CACHE_HOME:-\${HOME:-/tmp}/.cache}/forge}"
cache="$root/$hash"
if [ ! -f "$cache/.complete" ]; then
  mkdir -p "$root"
  tmp=$(mktemp -d "$root/.extract.XXXXXX")
  if ! tail -c "+$skip" "$0" | ${decompress} | tar -x -C "$tmp"; then
    rm -rf "$tmp"
    echo "forge: could not unpack $0 into $root (is ${decompress.split(" ")[0]} installed?)" >&2
    exit 1
  fi
  touch "$tmp/.complete"
  if [ -d "$cache" ]; then rm -rf "$tmp"; else mv "$tmp" "$cache"; fi
fi
export DENO_DIR="$cache/deno_dir"
export FORGE_BUILD_SHA="\${FORGE_BUILD_SHA:-${f.sha}}"
exec "$cache/deno" run ${f.launcherFlags.join(" ")} "$cache/app/tools/launch.ts" "$@"
`;
}
