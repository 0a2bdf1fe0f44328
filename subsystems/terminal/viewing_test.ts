import { assert, assertEquals } from "../../tests/assert.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host, Peer } from "../../server/subsystem.ts";
import type { SeatInfo } from "../../server/workspace/workspace.ts";
import type { ClientMessageOf, ServerMessage } from "../../protocol/mod.ts";
import { testEnv, withTempHome } from "../../tests/terminal_support.ts";
import { TerminalManager } from "./manager.ts";
import { terminalViewing } from "./viewing.ts";

const seat = { org: "acme", project: "web", label: "lead" };

/** A connection that keeps what it is sent and the close handlers it is given. */
function connection(): Peer & { sent: ServerMessage[]; closers: (() => void)[] } {
  const sent: ServerMessage[] = [];
  const closers: (() => void)[] = [];
  return {
    id: 1,
    answering: false,
    showing: null,
    sent,
    closers,
    send: (m) => sent.push(m),
    sendBinary: () => {},
    buffered: () => 0,
    onClose: (fn) => closers.push(fn),
  };
}

// spec: terminal_view: a connection views one terminal at a time, and may view again and again.
Deno.test("viewing a terminal again and again leaves one close handler on the connection", async () => {
  await withTempHome(async (home) => {
    const manager = new TerminalManager({
      terminal: { shell: "/bin/bash", env: testEnv(home), pollMs: 50 },
    });
    const info: SeatInfo = {
      slot: seat,
      project: {} as SeatInfo["project"],
      cwd: home,
      sessionId: () => null,
    };
    const host = { workspace: { seat: () => info }, log: memoryLogger() } as unknown as Host;
    const { verbs } = terminalViewing(host, manager);
    const peer = connection();
    const view: ClientMessageOf<"terminal_view"> = { kind: "terminal_view", seat, reply_to: 1 };
    try {
      for (let i = 0; i < 50; i++) {
        await verbs.terminal_view(view, peer);
        if (i % 2 === 0) verbs.terminal_detach({ kind: "terminal_detach" }, peer);
      }
      assertEquals(peer.closers.length, 1);
      // The one handler still detaches the view when the connection closes.
      const terminal = manager.get("acme/web/lead")!;
      assert(terminal.viewers.count > 0, "attached before the close");
      peer.closers[0]();
      assertEquals(terminal.viewers.count, 0);
    } finally {
      await manager.closeAll();
    }
  });
});
