// Spawned tier: `deno task start` runs forge as a process; its seat runs the real claude CLI
// against the fake Messages API (also a process); the test is a client on the socket.
// spec: What a client receives > update {seq, span}; session > pending_asks; subscribe >
// answering; the original's commands (prompt, respond_permission, cancel) and updates, and the
// CLI's can_use_tool control request.
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { alive, chatOf, command, seatWorld, typedUpdateOf, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("a seat's turn: tokens stream folded, asks park for the answerer alone, allow/deny, cancel", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const answerer = await forge.ready();
  const reader = await forge.ready();
  for (const [c, answering] of [[answerer, true], [reader, false]] as const) {
    c.send({ kind: "subscribe", what: { session: lead }, answering });
    await c.next((m) => m.kind === "snapshot");
  }
  // auto_start spawned the lead; a prompt is taken while it starts (the CLI reads stdin).

  // --- 1. a prompt streams tokens and ends in a result ---------------------------------
  command(answerer, "prompt_under", {
    key: lead,
    text: "[[script:hello]] say hello",
    attachments: [],
    uuid: "0b7e1f4a-9c1d-4e2b-8f3a-5d6c7b8a9e01",
    source: "you",
  });
  const frames: Msg[] = [];
  for (;;) {
    const m = await answerer.next((f) => f.kind === "update", 30_000);
    frames.push(m);
    if (chatOf(m)?.type === "result") break;
  }
  const seqs = frames.map((m) => m.seq as number);
  for (let i = 1; i < frames.length; i++) {
    assertEquals(seqs[i], seqs[i - 1] + (frames[i - 1].span as number), "no gap in the numbers");
  }
  const forged = chatOf(frames.find((m) => chatOf(m)?.type === "user")!)!;
  assertEquals([forged.uuid, forged.source], ["0b7e1f4a-9c1d-4e2b-8f3a-5d6c7b8a9e01", "you"]);
  assert(frames.some((m) => updateOf(m, "prompt_queued")), "prompt_queued");
  const lifecycle = frames.map((m) => updateOf(m, "prompt_lifecycle")).filter(Boolean);
  assertEquals(lifecycle.map((l) => l!.state).slice(0, 2), ["queued", "started"]);
  const folded = frames.filter((m) => (m.span as number) > 1);
  assert(folded.length > 0, "a run of token appends crossed as one frame");
  const text = frames.map(chatOf).filter((f) =>
    f?.type === "stream_event" &&
    ((f.event as Msg).delta as Msg | undefined)?.type === "text_delta"
  ).map((f) => ((f!.event as Msg).delta as Msg).text).join("");
  assertEquals(text, "Hello from the scripted model, streamed in small pieces.");
  const estimate = frames.map(chatOf).reduce(
    (n, f) => n + (typeof f?.estimated_tokens_delta === "number" ? f.estimated_tokens_delta : 0),
    0,
  );
  assert(estimate > 0, "the thinking estimate's deltas crossed, summed");
  const result = chatOf(frames.at(-1)!)!;
  assertEquals([result.subtype, result.is_error], ["success", false]);

  // --- 2. a Bash call needing permission: both clients read the ask; only the answerer answers
  command(answerer, "prompt", { key: lead, text: "[[script:bash]] make a file", attachments: [] });
  const asked = updateOf(
    await answerer.next((m) => !!updateOf(m, "permission_request"), 30_000),
    "permission_request",
  )!;
  const seen = updateOf(
    await reader.next((m) => !!updateOf(m, "permission_request")),
    "permission_request",
  )!;
  assertEquals(seen.tool_id, asked.tool_id);
  const toolId = asked.tool_id as string;
  const request = asked.request as { tool_call: Msg; options: { option_id: string }[] };
  assertEquals(request.tool_call.raw_input, {
    command: "touch allowed.txt",
    description: "create allowed.txt",
  });
  assert(request.options.some((o) => o.option_id === "allow_once"));
  // The read-only client's answer parks nothing and decides nothing: it is refused by name.
  command(reader, "respond_permission", {
    key: lead,
    tool_id: toolId,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  const refused = await reader.next((m) => m.kind === "error");
  assertEquals([refused.what, refused.seat], ["dispatch", lead]);
  assertMatch(String(refused.why), /did not declare answering/);
  assert(
    !(await exists(`${world.projectDir("alpha")}/allowed.txt`)),
    "nothing ran on a read-only answer",
  );
  command(answerer, "respond_permission", {
    key: lead,
    tool_id: toolId,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  const resolved = updateOf(
    await reader.next((m) => !!updateOf(m, "pending_interaction_resolved")),
    "pending_interaction_resolved",
  )!;
  assertEquals(resolved.tool_id, toolId);
  await answerer.next((m) => chatOf(m)?.type === "result", 30_000);
  assert(await exists(`${world.projectDir("alpha")}/allowed.txt`), "the allowed tool ran");
  // An answer to an ask that is gone is refused naming it.
  command(answerer, "respond_permission", {
    key: lead,
    tool_id: toolId,
    outcome: { outcome: "selected", option_id: "allow_once", action: { kind: "allow" } },
  });
  const gone = await answerer.next((m) => m.kind === "error");
  assertMatch(String(gone.why), new RegExp(`no permission ask ${toolId} is waiting`));

  // --- 3. deny: the tool never runs and the CLI hears the person's words ------------------
  command(answerer, "prompt", { key: lead, text: "[[script:deny]] try again", attachments: [] });
  const ask2 = typedUpdateOf(
    await answerer.next((m) => !!updateOf(m, "permission_request"), 30_000),
    "permission_request",
  )!;
  command(answerer, "respond_permission", {
    key: lead,
    tool_id: ask2.tool_id,
    outcome: {
      outcome: "selected",
      option_id: "tell_claude",
      action: { kind: "deny" },
      notes_text: "not that file",
    },
  });
  const toolResult = await answerer.next((m) => {
    const f = chatOf(m);
    return f?.type === "user" && JSON.stringify(f.message).includes(String(ask2.tool_id));
  }, 30_000);
  assertMatch(JSON.stringify(chatOf(toolResult)!.message), /not that file/);
  await answerer.next((m) => chatOf(m)?.type === "result", 30_000);
  assert(!(await exists(`${world.projectDir("alpha")}/denied.txt`)), "the denied tool did not run");

  // --- 4. cancel mid-turn ----------------------------------------------------------------
  command(answerer, "prompt", { key: lead, text: "[[script:slow]] count slowly", attachments: [] });
  // The slow reply's first delta (frames are taken, so an earlier turn's would match too).
  await answerer.next((m) => {
    const delta = (chatOf(m)?.event as Msg | undefined)?.delta as Msg | undefined;
    return delta?.type === "text_delta" && delta.text === "one ";
  }, 30_000);
  command(answerer, "cancel", { key: lead });
  const cancelled = chatOf(await answerer.next((m) => chatOf(m)?.type === "result", 30_000))!;
  assertEquals(cancelled.subtype, "error_during_execution");
  await answerer.next((m) => !!updateOf(m, "turn_cancelled"));

  // The seat is Idle again and the process still runs.
  answerer.send({ kind: "subscribe", what: "home" });
  const home = (await answerer.next((m) => m.kind === "snapshot")).data as { agents: Msg[] };
  const row = home.agents.find((a) => (a.slot as Msg).project === "alpha")!;
  assertEquals([row.lifecycle, row.pending, row.reason], ["Idle", null, null]);
  const status = await forge.stop();
  assertEquals(status.code, 0);
  void alive;
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
