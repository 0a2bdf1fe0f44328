import { assert, assertEquals } from "../../tests/assert.ts";
import type { ClientMessage } from "../../protocol/mod.ts";
import { CommandDesk } from "./desk.ts";
import { ForgeRefusal, OffSchema } from "./errors.ts";
import { readVerbReply, type VerbReplyOf } from "./verbs.ts";

// spec: browser_tabs, browser_view, terminal_view: a verb sent with reply_to is answered in its
// reply, `{"ok": true, ...}` or `{"ok": false, "why"}`. The SDK reads that body against
// protocol/'s VERB_REPLIES for the verb it sent, so a caller gets the verb's own type.

/** What `fn` threw; fails when it returned. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("it did not throw");
}

Deno.test("readVerbReply: the ok arm typed by its verb; a refusal in forge's words", () => {
  const attached: VerbReplyOf<"terminal_view"> = readVerbReply("terminal_view", {
    ok: true,
    id: 3,
  });
  assertEquals(attached.id, 3);
  const refused = thrown(() => readVerbReply("browser_view", { ok: false, why: "no browser" }));
  assert(refused instanceof ForgeRefusal, String(refused));
  assertEquals([refused.what, refused.why], ["browser_view", "no browser"]);
});

Deno.test("readVerbReply: a body off the verb's schema is named as such", () => {
  const off = thrown(() => readVerbReply("terminal_view", { ok: true, id: "3" }));
  assert(off instanceof OffSchema, String(off));
  assertEquals(
    off.message,
    "forge's reply to terminal_view is off protocol/'s schema: id: expected a number, got a string",
  );
});

Deno.test("CommandDesk.verb: a fresh reply_to, the reply read by the verb's reader", async () => {
  const sent: ClientMessage[] = [];
  const desk = new CommandDesk((m) => sent.push(m));
  const seat = { org: "Acme", project: "alpha", label: "lead" };
  const read = (body: unknown) => readVerbReply("terminal_view", body as never);
  const answer = desk.verb((reply_to) => ({ kind: "terminal_view", seat, reply_to }), read);
  const asked = sent.find((m) => m.kind === "terminal_view");
  assertEquals(asked, { kind: "terminal_view", seat, reply_to: 1 });
  desk.heard({ kind: "pong" });
  desk.heard({ kind: "reply", reply_to: 1, body: { ok: true, id: 7 } });
  assertEquals(await answer, { ok: true, id: 7 });
});
