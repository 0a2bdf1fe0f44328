/**
 * Where the CLI writes a session's transcript (measured on CLI 2.1.332; session_test.ts checks it):
 * `$CLAUDE_CONFIG_DIR/projects/<slug>/<session-id>.jsonl`, the slug being the cwd with every
 * character outside `[A-Za-z0-9]` replaced by `-`.
 */

/**
 * The config dir of a CLI whose account names none: the inherited `$CLAUDE_CONFIG_DIR`, else the
 * CLI's own default, `~/.claude`. The launch, the account probe, a seat's OAuth facts and the
 * project catalog all ask here, so they read the same login (docs/accounts.md).
 */
export function defaultClaudeDir(env: { CLAUDE_CONFIG_DIR?: string; HOME?: string }): string {
  return env.CLAUDE_CONFIG_DIR || `${env.HOME ?? ""}/.claude`;
}

/** The project folder name the CLI derives from a cwd. Only short paths were checked; the CLI
 * is believed to shorten very long slugs (over ~200 characters) with a hash. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** The transcript file of `sessionId` for a process started in `cwd` (use the real path). */
export function transcriptPath(configDir: string, cwd: string, sessionId: string): string {
  return `${configDir}/projects/${projectSlug(cwd)}/${sessionId}.jsonl`;
}
