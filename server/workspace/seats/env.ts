import type { Slot } from "../../../protocol/mod.ts";
import type { ForgeConfig } from "../../config/types.ts";
import type { Logger } from "../../log.ts";
import type { Workspace } from "../workspace.ts";
import type { ToolBridge } from "../mcp/bridge.ts";
import type { HeldAskRegistry } from "./held.ts";
import type { PidBook } from "./orphans.ts";
import type { SessionBook } from "./session_book.ts";

/** Who is looking at a seat: the connections holding it (subscribed) and showing it. */
export interface Watchers {
  /** Connections subscribed to the seat's session subject. spec: session > processes. */
  holding(slot: Slot): number;
  /** Connections whose `showing` names the seat. spec: showing; home > unseen. */
  showing(slot: Slot): number;
}

/** What a seat needs from the server around it. */
export interface SeatEnv {
  log: Logger;
  config(): ForgeConfig;
  workspace: Workspace;
  watchers: Watchers;
  pids: PidBook;
  /** Each seat's last session, kept across restarts. */
  sessions: SessionBook;
  /** Rejects in the keeper's words while either book is damaged: no launch goes unrecorded. */
  booksWritable(): Promise<void>;
  /** An ask's own sequence, counted per server run. spec: home > boot_id. */
  nextAskSeq(): number;
  /** Every seat's held asks: ordered with the seat's own permission and questions. */
  held: HeldAskRegistry;
  /** forge's MCP server for the seats' CLIs; null runs them without forge's tools. */
  tools: ToolBridge | null;
}
