import { assertEquals } from "../../../../tests/assert.ts";
import { SentPrompts } from "./sent_prompts.ts";

// spec: the forged turn (a reader's own send is forged as a `you` turn: its acceptance); What a
// client receives > error (a refusal names the seat and goes to the press's connection alone).

const seat = { org: "Acme", project: "alpha", label: "lead" };
const refusal = (why: string) => ({
  kind: "error" as const,
  what: "dispatch",
  why,
  seat,
  dispatch_id: null,
});
const you = (content: string | { type: string; text: string }[]) => ({
  type: "user",
  message: { role: "user", content },
  uuid: crypto.randomUUID(),
  source: "you",
});

Deno.test("sent prompts: a refused prompt's words and images come back; an accepted one's never do", () => {
  const p = new SentPrompts();
  p.sent("first");
  const image = {
    name: "shot.png",
    attachment: { data: "iVBO", mime_type: "image/png" as const },
  };
  p.sent("second", [image]);
  // The first is accepted (forged as the reader's own turn), the second refused.
  p.heard(you("first"));
  assertEquals(p.waiting, 1);
  assertEquals(
    p.refused(refusal("prompt: Acme/alpha/lead: the seat has no session (nothing occupies it)")),
    true,
  );
  assertEquals(p.returned, {
    text: "second",
    why: "Acme/alpha/lead: the seat has no session (nothing occupies it)",
    attachments: [image],
  });
  p.took();
  assertEquals(p.returned, null);
  assertEquals(p.waiting, 0);
});

Deno.test("sent prompts: another command's refusal, a delivery's turn and an empty wait do nothing", () => {
  const p = new SentPrompts();
  assertEquals(p.refused(refusal("prompt: Acme/alpha/lead is not a seat")), false);
  p.sent("fix it");
  // A delivery's forged turn with the same words is not this page's send.
  p.heard({ ...you("fix it"), source: "cron" });
  assertEquals(p.refused(refusal("set_mode: Acme/alpha/lead: it is being released")), false);
  assertEquals(p.waiting, 1);
  // A prompt with attachments is forged as blocks: its text block is the words.
  p.heard(you([{ type: "text", text: "fix it" }]));
  assertEquals(p.waiting, 0);
  assertEquals(p.returned, null);
});

Deno.test("sent prompts: a new connection forgets the presses of the old one", () => {
  const p = new SentPrompts();
  p.sent("lost with the socket");
  p.forget();
  assertEquals(p.refused(refusal("prompt: Acme/alpha/lead: it failed: claude exited")), false);
  assertEquals(p.returned, null);
});
