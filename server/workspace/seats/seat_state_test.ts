// How CLI frames move a seat's state: spec session table (header, state.queue, slash_commands,
// subagents, background_tasks); the original's updates (prompt_lifecycle, *_changed, turn
// endings).
import { assertEquals } from "../../../tests/assert.ts";
import type { CliFrame } from "../../../protocol/mod.ts";
import { capToolRecord } from "./records.ts";
import { SeatState } from "./seat_state.ts";

const names = (d: { name: string }[]) => d.map((x) => x.name);

Deno.test("initialize, then a turn: lifecycle settles the queue, init moves commands, result ends", () => {
  const s = new SeatState();
  const init = s.initialize({
    models: [{ value: "default", resolvedModel: "m-default", displayName: "Default" }],
    commands: [{ name: "compact", description: "Compact", argumentHint: "" }],
    agents: [{ name: "Explore", description: "Search" }],
    current_permission_mode: "default",
  }, null);
  assertEquals(names(init), ["slash_commands_changed", "subagents_changed"]);
  assertEquals([s.model, s.permissionMode], ["m-default", "default"]);
  s.queue.push({ uuid: "u1", source: "you", text: "hi" });
  assertEquals(s.apply({ type: "command_lifecycle", command_uuid: "u1", state: "queued" }), [
    { name: "prompt_lifecycle", fields: { uuid: "u1", state: "queued" } },
  ]);
  assertEquals(s.queue.length, 1);
  s.apply({ type: "command_lifecycle", command_uuid: "u1", state: "started" });
  assertEquals([s.queue.length, s.turnInFlight], [0, true]);
  const moved = s.apply({
    type: "system",
    subtype: "init",
    model: "m-init",
    permissionMode: "plan",
    slash_commands: ["compact", "review"],
    agents: ["Explore"],
  });
  assertEquals(names(moved), ["slash_commands_changed"]);
  assertEquals(s.slashCommands, [
    { name: "compact", description: "Compact", input_hint: "" },
    { name: "review", description: "", input_hint: "" },
  ]);
  assertEquals([s.model, s.permissionMode], ["m-init", "plan"]);
  assertEquals(
    names(
      s.apply({
        type: "system",
        subtype: "init",
        slash_commands: ["review", "compact"],
        agents: ["Explore"],
      }),
    ),
    [],
  );
  assertEquals(
    s.apply({ type: "result", subtype: "success", is_error: false, terminal_reason: "completed" }),
    [
      { name: "turn_complete", fields: { terminal_reason: "completed" } },
    ],
  );
  assertEquals(s.turnInFlight, false);
});

Deno.test("turn endings: cancelled on an aborted turn, an error otherwise", () => {
  const s = new SeatState();
  assertEquals(
    names(
      s.apply({
        type: "result",
        subtype: "error_during_execution",
        terminal_reason: "aborted_streaming",
      }),
    ),
    ["turn_cancelled"],
  );
  assertEquals(
    s.apply({ type: "result", subtype: "success", is_error: true, result: "API Error: 529" }),
    [
      {
        name: "turn_error",
        fields: { message: "API Error: 529", class: null, terminal_reason: null },
      },
    ],
  );
});

Deno.test("tasks: a background job lives until its notification; a foreground call ends with its turn", () => {
  const s = new SeatState();
  s.apply({
    type: "assistant",
    message: {
      content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "sleep 9" } }],
    },
  });
  const started = s.apply({
    type: "system",
    subtype: "task_started",
    task_id: "k1",
    tool_use_id: "t1",
    description: "job",
    task_type: "local_bash",
    is_backgrounded: true,
  });
  assertEquals(started, [{
    name: "background_tasks_changed",
    fields: {
      tasks: [{
        task_id: "k1",
        task_type: "local_bash",
        description: "job",
        is_backgrounded: true,
        command: "sleep 9",
        tool_use_id: "t1",
      }],
    },
  }]);
  s.apply({
    type: "system",
    subtype: "task_started",
    task_id: "k2",
    tool_use_id: "t2",
    description: "long call",
    task_type: "local_bash",
    is_backgrounded: false,
  });
  const ended = s.apply({ type: "result", subtype: "success" });
  assertEquals(names(ended), ["background_tasks_changed", "turn_complete"]);
  assertEquals(s.tasks.rows().map((r) => r.task_id), ["k1"]);
  assertEquals(s.tasks.lookup("t1"), { taskId: "k1", outputFile: null });
  s.apply({
    type: "system",
    subtype: "task_notification",
    task_id: "k1",
    tool_use_id: "t1",
    status: "completed",
    output_file: "/tmp/k1.output",
  });
  assertEquals([s.tasks.hasBackgroundWork, s.tasks.lookup("t1")], [false, {
    taskId: null,
    outputFile: "/tmp/k1.output",
  }]);
});

Deno.test("a tool record over the cap is reduced to the drawn keys, then to a marker", () => {
  const frame: CliFrame = {
    type: "user",
    tool_use_result: { stdout: "x".repeat(500), structuredPatch: [1], userModified: false },
  };
  assertEquals(capToolRecord(frame, 1000), frame);
  assertEquals(capToolRecord(frame, 100).tool_use_result, {
    structuredPatch: [1],
    userModified: false,
  });
  const big: CliFrame = { type: "user", tool_use_result: { structuredPatch: ["y".repeat(500)] } };
  assertEquals(capToolRecord(big, 100).tool_use_result, {
    omitted: true,
    bytes: JSON.stringify(big.tool_use_result).length,
  });
});

// spec: session > monitors (monitors_changed) and composer > machine; the frames are the CLI's
// own for a Monitor call (task_started carries the call's tool_use id; task_notification ends it).
Deno.test("a Monitor call's task is a monitor until it ends; a turn no prompt started is the machine's", () => {
  const s = new SeatState();
  s.queue.push({ uuid: "u1", source: "you", text: "watch" });
  s.apply({ type: "command_lifecycle", command_uuid: "u1", state: "started" });
  s.apply({ type: "system", subtype: "init" });
  assertEquals(s.machineTurn, false, "a person's prompt");
  s.apply({
    type: "assistant",
    message: {
      content: [{
        type: "tool_use",
        id: "toolu_1",
        name: "Monitor",
        input: { description: "ticks", timeout_ms: 5000, command: "echo tick" },
      }],
    },
  });
  const started = s.apply({
    type: "system",
    subtype: "task_started",
    task_id: "t1",
    tool_use_id: "toolu_1",
    description: "ticks",
    is_backgrounded: true,
    task_type: "local_bash",
  });
  const monitor = {
    task_id: "t1",
    description: "ticks",
    command: "echo tick",
    url: null,
    timeout_ms: 5000,
    tool_use_id: "toolu_1",
  };
  assertEquals(started.find((d) => d.name === "monitors_changed")?.fields, { monitors: [monitor] });
  s.apply({ type: "result", subtype: "success", is_error: false });
  assertEquals(s.tasks.monitors(), [monitor], "a backgrounded watch outlives its turn");
  s.apply({ type: "system", subtype: "init" });
  assertEquals(s.machineTurn, true, "an event woke the model: nobody's prompt");
  const ended = s.apply({
    type: "system",
    subtype: "task_notification",
    task_id: "t1",
    tool_use_id: "toolu_1",
    status: "completed",
  });
  assertEquals(ended.find((d) => d.name === "monitors_changed")?.fields, { monitors: [] });
  s.apply({ type: "result", subtype: "success", is_error: false });
  s.queue.push({ uuid: "u2", source: "cron", text: "fire" });
  s.apply({ type: "command_lifecycle", command_uuid: "u2", state: "started" });
  assertEquals(s.machineTurn, true, "forge's own machinery");
});

Deno.test("the CLI's running state frame begins the turn before its init; idle leaves it to result", () => {
  const s = new SeatState();
  const state = (state: string) =>
    ({ type: "system", subtype: "session_state_changed", state }) as CliFrame;
  assertEquals(s.apply(state("running")), []);
  assertEquals(s.turnInFlight, true);
  s.apply({ type: "result", subtype: "success", is_error: false } as CliFrame);
  assertEquals(s.turnInFlight, false);
  s.apply(state("idle"));
  assertEquals(s.turnInFlight, false);
});
