import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";
import { mcpDrawn, mcpServers, readCallOutput } from "./seat_panels.ts";

// The seat's side panels as the page holds them: seeded from the session snapshot, moved by the
// updates that carry each whole, and read_call_output's answer, which stands nowhere in the
// seat's sequence (seq null). spec: session > subagent_instances, mcp, monitors; read_call_output.

const key = { org: "Acme", project: "alpha", label: "lead" };
const card = {
  name: "explore",
  dispatch_id: "d1",
  agent_type: "Explore",
  running: true,
  failed: false,
  backgrounded: false,
  ended_at_ms: null,
  calls: 2,
  tail: [{ name: "Read", title: "README.md", status: "done" }],
  usage: null,
};
const monitor = {
  task_id: "m1",
  description: "watch the build",
  command: "tail -f build.log",
  url: null,
  timeout_ms: 60_000,
  tool_use_id: "toolu_m",
};

function seeded(): { m: SeatModel; feed: (u: Wire, seq?: number | null) => void } {
  const m = new SeatModel(key);
  m.seed({
    ...snapshot(5),
    subagent_instances: [card],
    monitors: [monitor],
    mcp: { servers: [{ name: "forge", status: "connected", tools: [{ name: "a" }] }], error: null },
  });
  return { m, feed: (u, seq = m.nextSeq) => void m.accept(readUpdate(u), seq, 1) };
}

Deno.test("seat panels: the snapshot seeds the cards, servers and monitors", () => {
  const { m } = seeded();
  assertEquals(m.panels.cards.map((c) => c.name), ["explore"]);
  assertEquals(m.panels.mcp, {
    servers: [{ name: "forge", status: "connected", tools: 1, error: null }],
    error: null,
  });
  assertEquals(m.panels.monitors.map((x) => x.description), ["watch the build"]);
});

Deno.test("seat panels: each update replaces its panel whole; an MCP refusal is kept in words", () => {
  const { m, feed } = seeded();
  feed({ subagent_cards_changed: { key, cards: [{ ...card, running: false, calls: 3 }] } });
  assertEquals(m.panels.cards.map((c) => [c.running, c.calls]), [[false, 3]]);
  feed({ monitors_changed: { key, monitors: [] } });
  assertEquals(m.panels.monitors, []);
  feed({
    mcp_operation_error: {
      key,
      error: { server_name: "forge", operation: "reconnect", message: "no such server" },
    },
  });
  assertEquals(m.panels.mcpFailed, { server: "forge", words: "reconnect: no such server" });
  feed({ mcp_snapshot: { key, servers: [], error: "the CLI did not answer mcp_status" } });
  assertEquals(m.panels.mcp, { servers: [], error: "the CLI did not answer mcp_status" });
  assertEquals(m.panels.mcpFailed, null, "a fresh read supersedes the refusal");
});

Deno.test("seat panels: a call's output lands by its call id and moves no sequence", () => {
  const { m, feed } = seeded();
  m.panels.asked("toolu_1");
  assertEquals(m.panels.outputs.get("toolu_1"), { state: "asked" });
  const output = {
    state: "read" as const,
    path: "/t/a.output",
    lines: ["first", "second"],
    truncated: false,
  };
  feed({ call_output: { key, call_id: "toolu_1", output } }, null);
  assertEquals(m.panels.outputs.get("toolu_1"), output);
  assertEquals(m.nextSeq, 5);
  feed({ call_output: { key, call_id: "toolu_2", output: { state: "none", reason: "no-path" } } });
  assertEquals(m.panels.outputs.get("toolu_2"), {
    state: "none",
    words: "no output file: the call streamed none, or it is gone",
  });
});

Deno.test("seat panels: an answer off its shape and a row without a name are said, not drawn", () => {
  assertEquals(readCallOutput({ state: "read", lines: "x" }), {
    state: "none",
    words: "forge's answer was not an output read",
  });
  assertEquals(readCallOutput({ state: "none", reason: "gone-away" }), {
    state: "none",
    words: "no output: gone-away",
  });
  assertEquals(mcpServers([{ status: "failed" }, { name: "x", status: "failed", error: "boom" }]), [
    { name: "x", status: "failed", tools: null, error: "boom" },
  ]);
});

// spec: session > mcp, home > agents > lifecycle: the servers are the CLI's, so a seat with no
// CLI running has none running, whatever the last report forge keeps said.
Deno.test("seat panels: with no CLI running the servers last reported are drawn not running", () => {
  const last = {
    servers: [
      { name: "forge", status: "connected", tools: 4, error: null },
      { name: "docs", status: "failed", tools: null, error: "spawn ENOENT" },
    ],
    error: "the CLI did not answer mcp_status",
  };
  for (const lifecycle of ["Idle", "Running", "Attention", null]) {
    assertEquals(mcpDrawn(last, lifecycle), { ...last, notRunning: null }, String(lifecycle));
  }
  const asleep = mcpDrawn(last, "Sleeping");
  assertEquals(asleep, {
    servers: [
      { name: "forge", status: "not running", tools: null, error: null },
      { name: "docs", status: "not running", tools: null, error: null },
    ],
    error: null,
    notRunning: "not running while the seat sleeps",
  });
  assertEquals(
    mcpDrawn(last, "Failed").notRunning,
    "not running: the seat's CLI stopped when it failed",
  );
  assertEquals(mcpDrawn(last, "Spawning").servers.map((s) => s.status), [
    "not running",
    "not running",
  ]);
});
