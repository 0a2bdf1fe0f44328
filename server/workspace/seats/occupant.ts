import { ClaudeProcess, type ClaudeSpawnOptions } from "../claude/mod.ts";
import type { SeatTools, ToolBridge } from "../mcp/bridge.ts";
import { SERVER_NAME } from "../mcp/seat_server.ts";
import type { SeatInfo } from "../workspace.ts";
import type { AskBook } from "./asks.ts";
import type { SeatEnv } from "./env.ts";
import type { LaunchPlan } from "./launch.ts";

/** The parts of its seat a spawn reads: its name, its env, its asks, and who it is to forge. */
export interface SpawnParts {
  name: string;
  env: SeatEnv;
  /** The CLI's permission and question asks park here (asks.ts). */
  asks: AskBook;
  /** The seat as forge's MCP server names its caller. */
  info: SeatInfo;
}

/**
 * Spawns the occupant `plan` describes, first logging each thing the plan refused
 * (`seat_env_refused`). Throws as {@link spawnOccupant} does.
 */
export function spawnPlanned(
  plan: LaunchPlan,
  seat: SpawnParts,
): { proc: ClaudeProcess; tools: SeatTools | null } {
  for (const warning of plan.warnings) {
    seat.env.log.warn("seat_env_refused", { seat: seat.name, warning });
  }
  return spawnOccupant(
    {
      bin: plan.bin,
      args: plan.args,
      cwd: plan.cwd,
      env: plan.env,
      canUseTool: (req, signal) => seat.asks.park(req, signal),
      onProblem: (what) => seat.env.log.warn("seat_cli_problem", { seat: seat.name, what }),
    },
    seat.info,
    seat.env.tools,
  );
}

/**
 * Spawns a seat's occupant with forge's MCP server attached: `mcp_message` control requests go to
 * the occupant's tool server (measured: the CLI's sdk MCP transport asks its host over the control
 * protocol), and the bridge reaches the CLI back through forge's own `mcp_message` requests. Any
 * other inbound subtype is answered with an error naming it. Throws as `ClaudeProcess.spawn` does.
 */
export function spawnOccupant(
  opts: Omit<ClaudeSpawnOptions, "onControlRequest">,
  seat: SeatInfo,
  bridge: ToolBridge | null,
): { proc: ClaudeProcess; tools: SeatTools | null } {
  let tools: SeatTools | null = null;
  const proc = ClaudeProcess.spawn({
    ...opts,
    // forge's tools park their own asks: should the CLI ask anyway (a mode or a rule the
    // launch did not foresee), they are allowed here rather than shown as a permission prompt.
    canUseTool: (req, signal) =>
      req.tool_name.startsWith(`mcp__${SERVER_NAME}__`)
        ? { behavior: "allow", updatedInput: req.input }
        : opts.canUseTool
        ? opts.canUseTool(req, signal)
        : { behavior: "deny", message: "forge: no permission handler" },
    onControlRequest: (subtype, request) => {
      if (subtype === "mcp_message" && tools) return tools.server.handle(request);
      throw new Error(`forge does not answer ${subtype} requests`);
    },
  });
  tools = bridge?.attach(
    seat,
    (message) => proc.request("mcp_message", { server_name: SERVER_NAME, message }),
  ) ?? null;
  return { proc, tools };
}
