import { assertEquals } from "../tests/assert.ts";
import { recordingTransport } from "../tests/recording_transport.ts";
import { Connection } from "./connection.ts";
import { type DispatchDeps, dispatchText } from "./dispatch.ts";
import { encodeData } from "./encoded.ts";
import { memoryLogger } from "./log.ts";
import type { Registry } from "./registry.ts";
import { DEFAULT_TIMERS } from "./timers.ts";
import type { Workspace } from "./workspace/workspace.ts";

const seat = { org: "acme", project: "web", label: "lead" };

// spec: showing ("once the seat is also watched it spends the mark; a home snapshot may follow"),
// and subscribe ("answered with a snapshot"): what is emitted while the home is read follows it.
Deno.test("a home update emitted while showing reads the home follows the home snapshot", async () => {
  const transport = recordingTransport();
  const conn = new Connection(1, transport, {
    deflate: false,
    timers: DEFAULT_TIMERS,
    log: memoryLogger(),
    peer: "test",
  });
  const home = {
    // The home is read across an await; an update fanned out meanwhile reaches the connection.
    handler: async () => {
      await Promise.resolve();
      conn.sendEncoded(JSON.stringify({ kind: "update" }), 17);
      return encodeData({ fatal_error: null } as never);
    },
  };
  const deps = {
    registry: { subject: () => home } as unknown as Registry,
    workspace: { spendUnseen: () => true } as unknown as Workspace,
    log: memoryLogger(),
  } satisfies DispatchDeps;
  try {
    conn.subs.add("home");
    conn.subs.add({ session: seat });
    await dispatchText(conn, JSON.stringify({ kind: "showing", seat }), deps);
    assertEquals(transport.sent, ["snapshot", "update"]);
  } finally {
    conn.end("closed");
  }
});
