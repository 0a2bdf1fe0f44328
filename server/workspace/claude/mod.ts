/**
 * The low-level driver for one `claude` CLI process, launched as the original forge launches it:
 * argv, child environment, the process with its frame stream and control protocol, and where its
 * transcript lands. Seats logic lives above this; test support is in `tests/claude_support.ts`.
 */
export { type ArgvOptions, buildArgv } from "./argv.ts";
export {
  buildChildEnv,
  type ChildEnv,
  type ChildEnvInput,
  MODEL_SLOT_VARS,
  OFFLINE_VARS,
  STRIPPED_VARS,
} from "./env.ts";
export { ClaudeProcess, type ClaudeSpawnOptions, defaultClaudeBin } from "./process.ts";
export { ControlError } from "./control.ts";
export { defaultClaudeDir, projectSlug, transcriptPath } from "./paths.ts";
export { encodeLine } from "./stdin_writer.ts";
export type {
  CanUseToolHandler,
  CanUseToolRequest,
  ClaudeEvent,
  ClaudeExit,
  CliFrame,
  ControlRequestHandler,
  JsonObject,
  JsonValue,
  PermissionDecision,
  PermissionMode,
} from "./types.ts";
export { isJsonObject } from "./types.ts";
