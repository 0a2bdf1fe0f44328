import { assertEquals } from "../../../tests/assert.ts";
import { SubagentCards } from "./subagent_cards.ts";

// subagent_instances and has_dispatches from the CLI's own task frames (the
// frame sequence the CLI writes for a Task dispatch: task_started, the subagent's calls under
// parent_tool_use_id, task_progress, a terminal task_updated).
Deno.test("a dispatch opens a card, counts its calls, takes its usage and ends", () => {
  const cards = new SubagentCards();
  assertEquals(cards.hasDispatches, false);
  const started = cards.apply({
    type: "system",
    subtype: "task_started",
    task_id: "t-sub",
    tool_use_id: "tu-sub",
    description: "map the calls",
    task_type: "local_agent",
    subagent_type: "general-purpose",
    is_backgrounded: false,
  });
  assertEquals(started, { moved: true, flipped: true });
  cards.apply({
    type: "assistant",
    parent_tool_use_id: "tu-sub",
    message: {
      content: [{ type: "tool_use", id: "x", name: "Read", input: { file_path: "a.ts" } }],
    },
  });
  cards.apply({
    type: "user",
    parent_tool_use_id: "tu-sub",
    message: { content: [{ type: "tool_result", tool_use_id: "x", content: "ok" }] },
  });
  cards.apply({
    type: "system",
    subtype: "task_progress",
    task_id: "t-sub",
    usage: { total_tokens: 9714, tool_uses: 1, duration_ms: 2716 },
  });
  const ended = cards.apply({
    type: "system",
    subtype: "task_updated",
    task_id: "t-sub",
    patch: { status: "completed", end_time: 1750000000000 },
  });
  assertEquals(ended, { moved: true, flipped: false });
  assertEquals(cards.wire(), [{
    name: "map the calls",
    dispatch_id: "tu-sub",
    agent_type: "general-purpose",
    running: false,
    failed: false,
    backgrounded: false,
    ended_at_ms: 1750000000000,
    calls: 1,
    tail: [{ name: "Read", title: "Read a.ts", status: "completed" }],
    usage: { total_tokens: 9714, tool_uses: 1, duration_ms: 2716 },
  }]);
  // A Bash task is not a dispatch.
  assertEquals(
    cards.apply({ type: "system", subtype: "task_started", task_id: "b", task_type: "local_bash" }),
    { moved: false, flipped: false },
  );
});
