/**
 * The argv forge passes to `claude` (the original forge's, in its order): stream-json both ways,
 * permission prompts over stdio, partial messages on, `--input-format` always last.
 */
import type { PermissionMode } from "./types.ts";

/** What varies between launches. */
export interface ArgvOptions {
  /** `--model`; omitted when unset. */
  model?: string;
  /** `--permission-mode`; omitted when unset or `default`. */
  permissionMode?: PermissionMode;
  /** `--resume <id>`: continue an existing transcript. Never with `sessionId`. */
  resume?: string;
  /** `--session-id <id>`: create a session under a known id. Never with `resume`. */
  sessionId?: string;
  /** `--effort <level>`. */
  effort?: string;
  /** Launch settings `extra_args` (the original's field): `[flag, value-or-null]`, the flag with or
   * without its leading `--`. Rendered just before `--input-format`. */
  extraArgs?: ReadonlyArray<readonly [string, string | null]>;
}

/** Flags the driver owns; an extra arg may not set them again. */
const MANAGED = new Set([
  "output-format",
  "input-format",
  "verbose",
  "permission-prompt-tool",
  "include-partial-messages",
  "print",
  "p",
  "model",
  "permission-mode",
  "resume",
  "session-id",
  "effort",
]);

/**
 * Builds the argv (without the binary). Throws when `resume` and `sessionId` are both set, or
 * an extra arg is empty or names a flag the driver manages.
 */
export function buildArgv(o: ArgvOptions = {}): string[] {
  if (o.resume !== undefined && o.sessionId !== undefined) {
    throw new Error("claude argv: resume and session_id are exclusive (resume keeps its own id)");
  }
  const argv = ["--output-format", "stream-json", "--verbose"];
  if (o.model) argv.push("--model", o.model);
  // forge always routes permission prompts over stdio, as the original forge does.
  argv.push("--permission-prompt-tool", "stdio");
  if (o.permissionMode && o.permissionMode !== "default") {
    argv.push("--permission-mode", o.permissionMode);
  }
  if (o.resume !== undefined) argv.push("--resume", o.resume);
  if (o.sessionId !== undefined) argv.push("--session-id", o.sessionId);
  if (o.effort) argv.push("--effort", o.effort);
  argv.push("--include-partial-messages");
  for (const [flag, value] of o.extraArgs ?? []) {
    const name = flag.replace(/^--?/, "");
    if (!name) throw new Error(`claude argv: extra arg ${JSON.stringify(flag)} has no flag name`);
    if (MANAGED.has(name)) {
      throw new Error(
        `claude argv: extra arg --${name} is set by the driver and cannot be repeated`,
      );
    }
    argv.push(`--${name}`);
    if (value !== null) argv.push(value);
  }
  argv.push("--input-format", "stream-json");
  return argv;
}
