import { assert, assertEquals } from "../../../tests/assert.ts";
import type { Frame } from "./rows.ts";
import { promptUuid, REAL, realPath, referenceRows } from "../../../tests/conversation_support.ts";
import { backgroundedCalls, endingFrame, isPreamble, opensTurn, taskEnding } from "./turns.ts";

async function frames(name: keyof typeof REAL): Promise<Frame[]> {
  return (await referenceRows(realPath(name))).map((r) => r.frame);
}

Deno.test("spec Two representations (where a turn BEGINS): exactly the prompts sent open turns, on every real transcript", async () => {
  const want: Record<keyof typeof REAL, string[]> = {
    plain_text: ["a1"],
    tool_bash: ["b1"],
    multi_turn: ["c1", "c2", "c3"],
    // d2 was sent mid-turn: the CLI took it inside d1's turn as a queued command.
    queued_prompt: ["d1", "d3"],
    // The task ending between e2 and e3 opens nothing.
    background_ending: ["e1", "e2", "e3"],
    ending_mid_turn: ["a7"],
    // f2 is `/compact` (its command row); the interrupt marker and command output open nothing.
    compact_interrupt: ["f1", "f2", "f3", "f4", "f5"],
  };
  for (const name of Object.keys(REAL) as Array<keyof typeof REAL>) {
    const opened = (await frames(name)).filter(opensTurn).map((f) => f.uuid);
    assertEquals(opened, want[name].map(promptUuid), name);
  }
});

Deno.test("spec Two representations: without the CLI's turn marker, a prompt is told by its shape", () => {
  const user = (content: unknown, extra: Record<string, unknown> = {}): Frame =>
    ({ type: "user", message: { role: "user", content }, ...extra }) as Frame;
  assert(opensTurn(user("hello")));
  assert(opensTurn(user([{ type: "image", source: {} }])), "an image-only prompt");
  assert(opensTurn(user([{ type: "text", text: "look" }, { type: "image", source: {} }])));
  assert(!opensTurn(user([{ type: "tool_result", tool_use_id: "t", content: "x" }])));
  assert(!opensTurn(user("caveat", { isMeta: true })));
  assert(!opensTurn(user("summary", { isCompactSummary: true })));
  assert(!opensTurn(user("echo", { isReplay: true })));
  assert(!opensTurn(user("[Request interrupted by user for tool use]")));
  assert(!opensTurn(user("<local-command-stdout>ok</local-command-stdout>")));
  assert(!opensTurn(user("<task-notification>\n<tool-use-id>t</tool-use-id></task-notification>")));
  assert(!opensTurn({ type: "assistant", message: { content: "hi" } } as Frame));
  // The marker wins over the text.
  assert(
    opensTurn(
      user("<local-command-stdout>typed</local-command-stdout>", { turnAttributionKey: "k" }),
    ),
  );
});

Deno.test("spec Two representations: /compact's boundary, summary and caveat are the preamble of its turn", async () => {
  const fs = await frames("compact_interrupt");
  const command = fs.findIndex((f) => f.uuid === promptUuid("f2"));
  const above = fs.slice(command - 3, command);
  assertEquals(above.map((f) => f.subtype ?? f.type), ["compact_boundary", "user", "user"]);
  assert(above.every(isPreamble));
  assert(!isPreamble(fs[command]) && !isPreamble(fs[command - 4]));
});

Deno.test("spec A turn can carry a frame the CLI did not send: a backgrounded call and its ending, as the CLI wrote them", async () => {
  for (const name of ["background_ending", "ending_mid_turn"] as const) {
    const fs = await frames(name);
    const calls = fs.flatMap(backgroundedCalls);
    assertEquals(calls.length, 1, name);
    const endings = fs.map(taskEnding).filter((e) => e !== null);
    assertEquals(endings.length, 1, name);
    const e = endings[0]!;
    assertEquals(e.tool_use_id, calls[0]);
    assertEquals(e.status, "completed");
    assertEquals(e.summary, 'Background command "bg job" completed (exit code 0)');
    assert(e.task_id && e.output_file?.endsWith(`/tasks/${e.task_id}.output`));
    const forged = endingFrame(e, fs[0]);
    assertEquals(forged.type, "system");
    assertEquals(forged.subtype, "task_notification");
    assertEquals(forged.tool_use_id, calls[0]);
    assertEquals(forged.session_id, fs[0].session_id);
    assert(!("uuid" in forged), "the forged frame has no uuid");
  }
});
