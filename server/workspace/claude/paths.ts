/**
 * Where the CLI writes a session's transcript (harness report §7, checked by session_test.ts):
 * `$CLAUDE_CONFIG_DIR/projects/<slug>/<session-id>.jsonl`, the slug being the cwd with every
 * character outside `[A-Za-z0-9]` replaced by `-`.
 */

/** The project folder name the CLI derives from a cwd. Only short paths were checked; the CLI
 * is believed to shorten very long slugs (over ~200 characters) with a hash. */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** The transcript file of `sessionId` for a process started in `cwd` (use the real path). */
export function transcriptPath(configDir: string, cwd: string, sessionId: string): string {
  return `${configDir}/projects/${projectSlug(cwd)}/${sessionId}.jsonl`;
}
