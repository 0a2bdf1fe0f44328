// Spawned tier, the real CLI: a worker's message handed to its lead by a client. The original's
// deliver_worker_prompt_to_lead {caller, target_lead_key, wrapped} and peer_envelope_appended;
// spec: "Not every frame on the stream is the CLI's" (a delivery is a forged user turn with its
// source).
import { envelopeText } from "../protocol/workers.ts";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { firstUpdate, untilResult } from "./mcp_harness.ts";
import { chatOf, command, seatWorld, subscribeSeat, updateOf } from "./seats_harness.ts";

type Msg = Record<string, unknown>;

Deno.test("deliver_worker_prompt_to_lead: the wrapped message is the lead's next turn (source peer) and stays in its conversation; a seat that is no lead is refused", async () => {
  await using world = await seatWorld([{ name: "alpha" }]);
  const forge = await world.startForge();
  const lead = world.lead("alpha");
  const c = await forge.ready();
  await subscribeSeat(c, lead, true);

  const wrapped = {
    id: "m-7",
    kind: "message",
    sender_name: "alpha/w1",
    sender_org: "Acme",
    body: "The parser is done; tests pass.",
  } as const;
  const text = envelopeText(wrapped);
  command(c, "deliver_worker_prompt_to_lead", {
    caller: { ...lead, label: "w1" },
    target_lead_key: lead,
    wrapped,
  });
  const forged = await c.next((m) => chatOf(m)?.type === "user" && chatOf(m)?.source === "peer");
  const content = (chatOf(forged)!.message as { content: unknown }).content;
  assertEquals(
    typeof content === "string" ? content : (content as Msg[]).map((b) => b.text).join(""),
    text,
  );
  const frames = await untilResult(c);
  const announced = firstUpdate(frames, "peer_envelope_appended") ?? updateOf(
    await c.next((m) => updateOf(m, "peer_envelope_appended") !== null),
    "peer_envelope_appended",
  )!;
  assertEquals([announced.key, announced.wrapped], [lead, wrapped]);
  // The model was asked with the envelope as the user's words; its answer ends the turn.
  assertEquals(chatOf(frames.at(-1)!)!.result, `Echo: ${text}`);

  // A client that attaches afterwards reads the delivery in the lead's conversation.
  const late = await forge.ready();
  const snap = await subscribeSeat(late, lead) as {
    conversation: { turns: { messages: Msg[] }[] };
  };
  const held = snap.conversation.turns.flatMap((t) => t.messages);
  assert(JSON.stringify(held).includes("The parser is done; tests pass."), "in the conversation");

  // The target must be a lead: a worker's label is refused in words, and nothing is delivered.
  command(c, "deliver_worker_prompt_to_lead", {
    caller: lead,
    target_lead_key: { ...lead, label: "w1" },
    wrapped: { ...wrapped, id: "m-8" },
  });
  const refused = await c.next((m) => m.kind === "error");
  assertMatch(String(refused.why), /^deliver_worker_prompt_to_lead: Acme\/alpha\/w1 is not a lead/);
});
