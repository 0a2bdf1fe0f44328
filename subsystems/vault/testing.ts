import type { SessionUpdate, Slot, Wire } from "../../protocol/mod.ts";
import type { ForgeConfig } from "../../server/config/types.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host, Peer, ToolCall } from "../../server/subsystem.ts";
import { HeldAskRegistry } from "../../server/workspace/seats/held.ts";
import type { SeatInfo, Workspace } from "../../server/workspace/workspace.ts";

// A Host for the vault's subsystem-tier tests: the server's own held-ask registry (park emits
// `*_pending`, an answer runs the call and then emits `*_resolved`, restamp re-pushes), an update
// list, and a memory log.

export function fakeHost(vault: Record<string, Wire>, stateDir: string) {
  const updates: SessionUpdate[] = [];
  const log = memoryLogger();
  const asks = new HeldAskRegistry((u) => updates.push(u));
  const config = { areas: { vault: { enabled: true, idle_lock_minutes: 15, ...vault } } };
  const host: Host = {
    log,
    config: () => config as unknown as ForgeConfig,
    stateDir,
    workspace: {} as unknown as Workspace,
    emit: (u) => void updates.push(u),
    asks,
    deliver: () => Promise.reject(new Error("no deliveries here")),
    toolsChanged: () => {},
  };
  return { host, updates, log, asks, config };
}

export const SLOT: Slot = { org: "Acme", project: "proj", label: "lead" };
export const OTHER: Slot = { org: "Acme", project: "proj", label: "w1" };

export function toolCall(slot: Slot = SLOT, signal = new AbortController().signal): ToolCall {
  return {
    seat: { slot, cwd: "/tmp", sessionId: () => null } as unknown as SeatInfo,
    role: "lead",
    toolUseId: null,
    signal,
  };
}

export function peer(answering: boolean): Peer {
  return {
    id: 1,
    answering,
    showing: null,
    send: () => {},
    sendBinary: () => {},
    buffered: () => 0,
    onClose: () => {},
  };
}
