// Spawned tier, real CLI + fake API calling forge's document and terminal tools (the
// document and terminal families). spec: answer_document_hand_off (approve /
// feedback with review_id and note; document_read's confinement); session > composer
// (`handoff` while a hand-off is parked); terminal_control ("while a client holds it the
// terminal tools are refused").
import { decodeTerminalOutput, type HandOffAnswer } from "../protocol/mod.ts";
import type { ForgeClient } from "../tools/client_lib.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { MCP_SCRIPT, type Msg, promptTurn, toolResultsOf, untilResult } from "./mcp_harness.ts";
import { command, seatWorld, subscribeSeat, until, updateOf } from "./seats_harness.ts";

/** The tool_result text of the fake API's last main request: what the model received. */
async function modelSaw(world: { apiRequests(): Promise<unknown[]> }): Promise<string> {
  const reqs = await world.apiRequests() as { kind: string; body: { messages: Msg[] } }[];
  const last = reqs.filter((r) => r.kind === "main").at(-1)!;
  return JSON.stringify(last.body.messages.at(-1));
}

Deno.test("document__hand_off: approve and feedback reach the model; the composer shows handoff; a path outside is refused", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  await Deno.writeTextFile(`${world.projectDir("alpha")}/plan.md`, "# Plan\n\nShip it.\n");
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  for (const [verdict, note] of [["approve", "looks right"], ["feedback", "split step 2"]]) {
    command(c, "prompt", { key: lead, text: "[[script:doc]] hand me the plan", attachments: [] });
    const pending = updateOf(
      await c.next((m) => !!updateOf(m, "document_hand_off_pending"), 60_000),
      "document_hand_off_pending",
    )!;
    assertEquals([pending.reason, pending.reviewable], ["please read the plan", true]);
    assertMatch(String(pending.path), /\/alpha\/plan\.md$/);
    const viewer = await forge.ready();
    const snap = await subscribeSeat(viewer, lead) as { composer: Msg; pending_ask: Msg };
    assertEquals(snap.composer.machine, "handoff");
    assertEquals([snap.pending_ask.kind, snap.pending_ask.id], ["document_hand_off", pending.id]);
    await viewer.close();
    const verdictOf = { review_id: "r-7", note };
    const answer: HandOffAnswer = verdict === "approve"
      ? { approve: verdictOf }
      : { feedback: verdictOf };
    c.send({ kind: "answer_document_hand_off", key: lead, id: String(pending.id), answer });
    const done = await untilResult(c);
    assertEquals(firstEnding(done), "answered");
    const words = verdict === "approve" ? "approved" : "sent back with feedback";
    assertMatch(
      await modelSaw(world),
      new RegExp(`The person ${words} .*plan\\.md\\. review_id: r-7\\. Note: ${note}`),
    );
  }

  const refused = await promptTurn(c, lead, "[[script:docout]] hand me something outside");
  assert(!refused.some((m) => updateOf(m, "document_hand_off_pending")), "nothing parked");
  assertMatch(
    toolResultsOf(refused)[0].text,
    /document_read: \.\.\/outside\.md is outside the working tree; nothing was handed off/,
  );
});

function firstEnding(frames: Msg[]): unknown {
  for (const m of frames) {
    const u = updateOf(m, "document_hand_off_resolved");
    if (u) return u.ending;
  }
  return null;
}

/** Everything a client has seen of terminal `id`'s byte stream, as text. */
function output(c: ForgeClient, id: number): string {
  return c.frames.flatMap((f) => {
    if (f.type !== "binary" || f.kind !== 4) return [];
    const d = decodeTerminalOutput(f.bytes);
    return d.ok && d.frame.id === id ? [new TextDecoder().decode(d.frame.bytes)] : [];
  }).join("");
}

Deno.test("terminal__run: its output reaches a viewer; refused while a person holds control", async () => {
  await using world = await seatWorld([{ name: "alpha" }], MCP_SCRIPT);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);
  const viewer = await forge.ready();
  viewer.send({ kind: "terminal_view", seat: lead, reply_to: 1 });
  const id = ((await viewer.next((m) => m.kind === "reply")).body as { id: number }).id;
  await viewer.next((m) => m.kind === "terminal_view");

  const ran = await promptTurn(c, lead, "[[script:run]] run it");
  const result = toolResultsOf(ran)[0];
  assertEquals(result.isError, false);
  assertMatch(result.text, /forge-42/);
  await until(() => /forge-42/.test(output(viewer, id)), 10_000, "the viewer to see the output");

  viewer.send({ kind: "terminal_control", seat: lead, id, take: true });
  await viewer.next((m) => m.kind === "terminal_control" && m.controller !== null);
  const refused = toolResultsOf(await promptTurn(c, lead, "[[script:run]] run it again"))[0];
  assertEquals(refused.isError, true);
  assertMatch(refused.text, /terminal__run: a person holds this terminal's control/);
  assertEquals(output(viewer, id).match(/forge-42/g)!.length, 1, "the refused run typed nothing");
});
