/**
 * forge's own MCP server for its seats: the tool catalogue the registry contributes
 * (catalog.ts), one server per occupant over the control protocol (seat_server.ts), the launch
 * flags (launch.ts) and the bridge holding them together (bridge.ts).
 */
export {
  listEntry,
  parseInput,
  roleOf,
  toolDeclarationProblem,
  type ToolEntry,
} from "./catalog.ts";
export { type SeatTools, type SendMcp, ToolBridge } from "./bridge.ts";
export { CallEnded, SeatToolServer, SERVER_NAME } from "./seat_server.ts";
export { TOOL_CALL_TIMEOUT_MS, TOOLS_PROMPT } from "./launch.ts";
