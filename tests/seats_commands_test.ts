// Socket tier: the server in this process (so it may read /proc), its seats running the real
// claude CLI against the fake API, a client on the socket. spec: session subject table (header,
// conversation, state, pending_asks, background_tasks, mcp, processes); showing; home > unseen;
// What a client sends > read_call_output; the original's commands, and AskUserQuestion's
// can_use_tool.
import { SessionHeader } from "../protocol/mod.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  chatOf,
  command,
  seatWorld,
  subscribeSeat,
  typedUpdateOf,
  updateOf,
} from "./seats_harness.ts";

type Msg = Record<string, unknown>;
const has = (name: string) => (m: Msg) => updateOf(m, name) !== null;

Deno.test("seat commands over the socket: reads, questions, a call's output, modes, occupants", async () => {
  await using world = await seatWorld([{ name: "alpha" }, { name: "idle", autoStart: false }]);
  const forge = await world.startInProcess();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  c.send({ kind: "subscribe", what: "home" });
  await c.next((m) => m.kind === "snapshot");
  const first = await subscribeSeat(c, lead, true);
  assertEquals((first.header as Msg).session_id !== null, true);

  // The read asked for a context reading and an MCP snapshot; a held seat is walked.
  const context = updateOf(
    await c.next(has("context_usage_snapshot"), 30_000),
    "context_usage_snapshot",
  )!;
  assert(typeof context.percentage === "number" && typeof context.max_tokens === "number");
  assertEquals(updateOf(await c.next(has("mcp_snapshot")), "mcp_snapshot")!.servers, []);
  const tree = updateOf(await c.next(has("processes_changed"), 5_000), "processes_changed")!
    .snapshot as { pid: number; processes: { pid: number; command: string }[] };
  assertEquals(tree.processes[0].pid, tree.pid);
  assertMatch(tree.processes[0].command, /claude/);

  // A turn that ends while nobody shows the seat marks it unseen; showing it spends the mark.
  command(c, "prompt", { key: lead, text: "[[script:hello]] hi", attachments: [] });
  // The turn is over on the CLI's word that it is idle, numbered after its result: a reader
  // waiting on the result alone could read the seat before that word landed.
  const result = await c.next((m) => chatOf(m)?.type === "result", 30_000);
  await c.next((m) => {
    const msg = chatOf(m);
    return (m.seq as number) > (result.seq as number) &&
      msg?.subtype === "session_state_changed" && msg.state === "idle";
  }, 30_000);
  c.send({ kind: "subscribe", what: "home" });
  const home = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  assertEquals(home.unseen, [lead]);
  c.send({ kind: "showing", seat: lead });
  const spent = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as Msg;
  assertEquals(spent.unseen, []);

  // A fresh reader seeds from the snapshot: the newest turns, folded like the stream, and the
  // number the stream stands at.
  const d = await forge.ready();
  d.send({ kind: "subscribe", what: { session: lead } });
  const snap = (await d.next((m) => m.kind === "snapshot")).data as Msg;
  const conversation = snap.conversation as { turns: { key: string | null; messages: Msg[] }[] };
  const turn = conversation.turns.at(-1)!;
  assertEquals(turn.messages[0].type, "user", "a turn opens on the forged prompt");
  // The turn ends on the CLI's word that it is idle again, after the prompt's lifecycle closed.
  assertEquals(
    turn.messages.slice(-2).map((m) => m.subtype === undefined ? m.type : `${m.type}/${m.subtype}`),
    ["command_lifecycle", "system/session_state_changed"],
  );
  assertEquals(turn.messages.at(-1)!.state, "idle");
  assertEquals(turn.key, turn.messages.find((m) => m.type === "result")!.uuid);
  const folded = turn.messages.filter((m) => typeof m.folded_frames === "number");
  assert(folded.length > 0 && folded.every((m) => (m.folded_frames as number) > 1));
  assertEquals((snap.header as Msg).seq, (snap.header as Msg).seq as number);
  assertEquals((snap.state as Msg).queue, []);

  // AskUserQuestion parks one ask per question, answered front first.
  command(c, "prompt", { key: lead, text: "[[script:ask]] ask me", attachments: [] });
  const q0 = typedUpdateOf(await c.next(has("question_request"), 30_000), "question_request")!;
  const q1 = updateOf(await c.next(has("question_request")), "question_request")!;
  assertEquals([(q0.request as Msg).question_index, (q1.request as Msg).question_index], [0, 1]);
  d.send({ kind: "subscribe", what: { session: lead } });
  const parked = (await d.next((m) => m.kind === "snapshot")).data as Msg;
  assertEquals((parked.pending_asks as Msg[]).map((a) => [a.kind, a.tool_id]), [
    ["question", q0.tool_id],
    ["question", q0.tool_id],
  ]);
  assertEquals((parked.pending_ask as Msg).request, q0.request);
  command(c, "respond_question", {
    key: lead,
    tool_id: q0.tool_id,
    outcome: { outcome: "answered", selected_option_ids: ["opt_1"] },
  });
  assertEquals(
    updateOf(await c.next(has("pending_interaction_resolved")), "pending_interaction_resolved")!
      .question_index,
    0,
  );
  command(c, "respond_question", {
    key: lead,
    tool_id: q0.tool_id,
    outcome: { outcome: "answered", selected_option_ids: ["opt_0", "opt_1"] },
  });
  const answered = chatOf(
    await c.next(
      (m) => chatOf(m)?.type === "user" && JSON.stringify(chatOf(m)).includes(String(q0.tool_id)),
      30_000,
    ),
  )!;
  const answers = (answered.tool_use_result as Msg).answers;
  assertEquals(answers, { "Which colour?": "Blue", "Which sizes?": "Small, Large" });
  await c.next((m) => chatOf(m)?.type === "result", 30_000);

  // A background job: a task row, then its output read while it runs and after it ended.
  command(c, "prompt", { key: lead, text: "[[script:bgshort]] start it", attachments: [] });
  const tasks = updateOf(
    await c.next((m) => {
      const u = updateOf(m, "background_tasks_changed");
      return u !== null && (u.tasks as Msg[]).length > 0;
    }, 30_000),
    "background_tasks_changed",
  )!.tasks as Msg[];
  assertEquals([tasks[0].is_backgrounded, tasks[0].command], [
    true,
    "echo first; echo second; sleep 2",
  ]);
  const callId = tasks[0].tool_use_id as string;
  let output: Msg = {};
  for (let i = 0; i < 50 && (output.lines as string[] | undefined)?.length !== 2; i++) {
    command(c, "read_call_output", { key: lead, call_id: callId });
    const m = await c.next(has("call_output"));
    assertEquals([m.seq, m.span], [null, 1]);
    output = updateOf(m, "call_output")!.output as Msg;
    if ((output.lines as string[] | undefined)?.length !== 2) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  assertEquals([output.state, output.lines], ["read", ["first", "second"]]);
  const ended = chatOf(await c.next((m) => chatOf(m)?.subtype === "task_notification", 30_000))!;
  command(c, "read_call_output", { key: lead, call_id: callId });
  const after = updateOf(await c.next(has("call_output")), "call_output")!.output as Msg;
  // Once the task ended, the path its notification names is the one read (the CLI may have
  // closed the file with the job's exit line by then).
  assertEquals([after.path, (after.lines as string[]).slice(0, 2)], [ended.output_file, [
    "first",
    "second",
  ]]);
  command(c, "read_call_output", { key: lead, call_id: "toolu_nothing" });
  assertEquals(updateOf(await c.next(has("call_output")), "call_output")!.output, {
    state: "none",
    reason: "no-path",
  });

  // Mode and model.
  command(c, "set_mode", { key: lead, mode: "acceptEdits" });
  await c.next(
    (m) => chatOf(m)?.subtype === "status" && chatOf(m)!.permissionMode === "acceptEdits",
    10_000,
  );
  command(c, "set_model", { key: lead, model: "claude-sonnet-4-5" });
  d.send({ kind: "ping" });
  await d.next((m) => m.kind === "pong");

  // A fresh occupant, then the old one resumed; each replaces the seat's session.
  const before = SessionHeader.parse(parked.header).session_id;
  assert(before !== null, "the parked seat runs a session");
  command(c, "new_session", { key: lead, cwd: world.projectDir("alpha"), launch_settings: {} });
  const fresh = updateOf(await c.next(has("session_replaced"), 60_000), "session_replaced")!;
  assert(fresh.session_id !== before);
  command(c, "resume_session", {
    key: lead,
    session_id: before,
    cwd: world.projectDir("alpha"),
    launch_settings: {},
  });
  assertEquals(
    updateOf(await c.next(has("session_replaced"), 60_000), "session_replaced")!.session_id,
    before,
  );

  // close_session: releasing, then the lead sleeps and refuses session commands by name.
  command(c, "close_session", { session_key: lead });
  await c.next(has("releasing"), 10_000);
  // The connection's messages run in order, so the prompt below is read once the close is done.
  command(c, "prompt", { key: lead, text: "anyone?", attachments: [] });
  const refused = await c.next((m) => m.kind === "error");
  assertEquals([refused.what, refused.seat], ["dispatch", lead]);
  assertMatch(String(refused.why), /^prompt: Acme\/alpha\/lead: the seat has no session/);
  c.send({ kind: "subscribe", what: "home" });
  const slept = (await c.next((m) => m.kind === "snapshot" && m.subject === "home")).data as {
    agents: Msg[];
  };
  assertEquals(
    slept.agents.find((a) => (a.slot as Msg).project === "alpha")!.lifecycle,
    "Sleeping",
  );

  // A declared lead nobody started, and a seat nobody declared.
  command(c, "cancel", { key: world.lead("idle") });
  assertMatch(
    String((await c.next((m) => m.kind === "error")).why),
    /Acme\/idle\/lead: the seat has no session/,
  );
  command(c, "cancel", { key: { org: "Acme", project: "alpha", label: "ghost" } });
  assertMatch(
    String((await c.next((m) => m.kind === "error")).why),
    /Acme\/alpha\/ghost is not a seat/,
  );
  await forge.stop();
});
