import type { Slot } from "../../../protocol/mod.ts";
import { sameSlot } from "../../../protocol/mod.ts";
import type { Logger } from "../../log.ts";
import type { JsonObject } from "../claude/mod.ts";
import type { SeatInfo } from "../workspace.ts";
import type { ToolEntry } from "./catalog.ts";
import { mcpLaunchArgs } from "./launch.ts";
import { SeatToolServer, SERVER_NAME } from "./seat_server.ts";

/** Sends one `control_request mcp_message` to the CLI (forge's own notifications). */
export type SendMcp = (message: JsonObject) => Promise<unknown>;

interface Link {
  slot: Slot;
  server: SeatToolServer;
  send: SendMcp;
}

/** What a seat holds of the bridge for one occupant. */
export interface SeatTools {
  server: SeatToolServer;
  /** The occupant is gone: its running calls end `session_ended`, no more notifications. */
  detach(why: string): void;
}

/**
 * forge's agent tools across every seat: the launch flags, one MCP server per
 * occupant, and the `notifications/tools/list_changed` that tells a CLI its tools moved - on a
 * subsystem's request (`Host.toolsChanged`) or after a reload changed the set a seat was listed.
 */
export class ToolBridge {
  #links = new Set<Link>();

  /** `tools` reads the running subsystems' tools under the config in force now. */
  constructor(private readonly tools: () => ToolEntry[], private readonly log: Logger) {}

  /** The MCP server a seat's live occupant talks to (what its CLI calls), if it has one. */
  serverFor(slot: Slot): SeatToolServer | undefined {
    return [...this.#links].find((l) => sameSlot(l.slot, slot))?.server;
  }

  /** The launch flags every seat's CLI gets. */
  launchArgs(): [string, string][] {
    return mcpLaunchArgs();
  }

  /** A new occupant's MCP server; `send` reaches its CLI. */
  attach(seat: SeatInfo, send: SendMcp): SeatTools {
    const link: Link = {
      slot: seat.slot,
      server: new SeatToolServer(seat, this.tools, this.log),
      send,
    };
    this.#links.add(link);
    return {
      server: link.server,
      detach: (why) => {
        this.#links.delete(link);
        link.server.endAll(why);
      },
    };
  }

  /**
   * Announces `notifications/tools/list_changed` to the seats' CLIs (one seat, or all). With
   * `onlyIfMoved` a seat is told only when its tool names differ from what it last listed.
   */
  changed(slot?: Slot, onlyIfMoved = false): void {
    for (const link of this.#links) {
      if (slot && !sameSlot(slot, link.slot)) continue;
      if (onlyIfMoved) {
        if (link.server.listed === null) continue; // it has not listed yet: it will read the new set
        const now = link.server.current().map((t) => t.spec.name).sort();
        if (now.join("\n") === link.server.listed.join("\n")) continue;
      }
      link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }).catch((err) =>
        this.log.warn("tools_list_changed_failed", { error: err })
      );
    }
  }
}

export { SERVER_NAME };
