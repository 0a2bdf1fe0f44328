// One ask mechanism; spec: session > pending_asks (held kinds lead, in their order,
// arrival order within a kind), subscribe > answering, Editing the config
// (settings_write_pending / settings_write_resolved names the ending).
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { SessionUpdate, Slot } from "../../../protocol/mod.ts";
import { type Peer, Refusal } from "../../subsystem.ts";
import { CallEnded } from "../mcp/seat_server.ts";
import { HeldAskRegistry } from "./held.ts";

const lead: Slot = { org: "Acme", project: "alpha", label: "lead" };
const other: Slot = { org: "Acme", project: "beta", label: "lead" };

function peer(answering: boolean): Peer {
  return {
    id: 1,
    answering,
    showing: null,
    send: () => {},
    sendBinary: () => {},
    buffered: () => 0,
    onClose: () => {},
  };
}

function registry() {
  const emitted: SessionUpdate[] = [];
  return { held: new HeldAskRegistry((u) => emitted.push(u)), emitted };
}

Deno.test("held asks: pending_asks leads with the kinds' order, arrival order within one", () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, { kind: "settings_write", request: { keys: [] }, signal });
  const b = held.park(lead, { kind: "document_hand_off", request: { path: "a.md" }, signal });
  const c = held.park(lead, { kind: "settings_write", request: { keys: [1] }, signal });
  held.park(other, { kind: "slack_post", request: {}, signal });
  assertEquals(held.list(lead).map((x) => x.id), [b.id, a.id, c.id]);
  assertEquals(held.list(lead)[0].request, { path: "a.md", id: b.id });
  assert(held.handingOff(lead), "a document hand-off holds the machine turn");
  assert(!held.handingOff(other), "a Slack draft is no hand-off");
  assertEquals(emitted[0], {
    name: "settings_write_pending",
    fields: { key: lead, keys: [], id: a.id },
  });
  assertEquals(emitted.at(-1)!.name, "slack_post_pending");
  const seqs = held.list(lead).map((x) => x.seq);
  assertEquals(new Set(seqs).size, 3, "every ask has its own seq");
});

Deno.test("held asks: answered and declined reach the parker and name the ending", async () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const a = held.park<{ ok: boolean }>(lead, { kind: "settings_write", request: {}, signal });
  held.answer(lead, "settings_write", a.id, peer(true), {
    ending: "answered",
    answer: { ok: true },
  });
  assertEquals(await a.outcome, { ending: "answered", answer: { ok: true } });
  assertEquals(emitted.at(-1), {
    name: "settings_write_resolved",
    fields: { key: lead, id: a.id, ending: "answered", failure: null },
  });
  const b = held.park(lead, { kind: "settings_write", request: {}, signal });
  held.answer(lead, "settings_write", b.id, peer(true), { ending: "declined" });
  assertEquals((await b.outcome).ending, "declined");
  assertEquals(held.list(lead), []);
});

Deno.test("held asks: a non-answering connection, an unknown id, another seat are refused by name", () => {
  const { held } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, { kind: "settings_write", request: {}, signal });
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      assert(err instanceof Refusal, "a Refusal");
      return err.message;
    }
    throw new Error("not refused");
  };
  assertMatch(
    refusal(() => held.answer(lead, "settings_write", a.id, peer(false), { ending: "declined" })),
    /respond_settings_write: Acme\/alpha\/lead: this connection did not declare answering/,
  );
  assertMatch(
    refusal(() => held.answer(lead, "settings_write", "nope", peer(true), { ending: "declined" })),
    /no settings_write ask nope is waiting/,
  );
  assertMatch(
    refusal(() => held.answer(other, "settings_write", a.id, peer(true), { ending: "declined" })),
    /is parked on Acme\/alpha\/lead, not this seat/,
  );
  assertMatch(
    refusal(() => held.answer(lead, "document_hand_off", a.id, peer(true), { ending: "declined" })),
    /answer_document_hand_off: .*no document_hand_off ask/,
  );
  assertEquals(held.list(lead).length, 1, "every refusal left the ask parked");
});

Deno.test("held asks: a cancelled call, an ended session, an expiry end the ask by name", async () => {
  const { held, emitted } = registry();
  const call = new AbortController();
  const a = held.park(lead, { kind: "terminal_hand_off", request: {}, signal: call.signal });
  call.abort(new CallEnded("cancelled", "AbortError: remote-cancel"));
  assertEquals((await a.outcome).ending, "cancelled");
  const b = held.park(lead, {
    kind: "document_hand_off",
    request: {},
    signal: new AbortController().signal,
  });
  held.endSeat(lead, "session_ended");
  assertEquals((await b.outcome).ending, "session_ended");
  const c = held.park(lead, {
    kind: "slack_post",
    request: {},
    signal: new AbortController().signal,
    expiresMs: 5,
  });
  assertEquals((await c.outcome).ending, "expired");
  assertEquals(
    emitted.filter((u) => u.name.endsWith("_resolved")).map((u) => u.fields?.ending),
    ["cancelled", "session_ended", "expired"],
  );
  const aborted = new AbortController();
  aborted.abort(new CallEnded("session_ended", "gone"));
  const d = held.park(lead, { kind: "settings_write", request: {}, signal: aborted.signal });
  assertEquals((await d.outcome).ending, "session_ended", "an already-aborted call parks nothing");
});

// catalogue 2.3 #61-62 and 3 SlackDraftEnding: the draft rides `draft`, the ending is Slack's.
Deno.test("held asks: a Slack draft is `{key, draft}` and ends answered {approved} / expired / abandoned", async () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, { kind: "slack_post", request: { text: "hi" }, signal });
  assertEquals(emitted.at(-1), {
    name: "slack_post_pending",
    fields: { key: lead, draft: { text: "hi", id: a.id } },
  });
  held.answer(lead, "slack_post", a.id, peer(true), { ending: "declined" });
  await a.outcome;
  assertEquals(emitted.at(-1)!.fields, {
    key: lead,
    id: a.id,
    ending: { answered: { approved: false } },
    failure: null,
  });
  const b = held.park(lead, { kind: "slack_post", request: {}, signal, expiresMs: 1 });
  assertEquals((await b.outcome).ending, "expired");
  assertEquals(emitted.at(-1)!.fields!.ending, "expired");
  const stop = new AbortController();
  const c = held.park(lead, { kind: "slack_post", request: {}, signal: stop.signal });
  stop.abort();
  assertEquals((await c.outcome).ending, "cancelled");
  assertEquals(emitted.at(-1)!.fields!.ending, "abandoned");
});

// A held ask resolves after its effect: the answer runs the effect; `*_resolved` goes
// out once it landed, carrying a failed effect's words; the ask is gone from pending_asks at
// once, so a second answer is refused while the effect runs.
Deno.test("held asks: an answered ask resolves after its effect, naming a failure", async () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const landed = Promise.withResolvers<void>();
  let ran = 0;
  const a = held.park(lead, {
    kind: "settings_write",
    request: {},
    signal,
    effect: async (answer) => {
      ran++;
      await landed.promise;
      return { text: `wrote ${answer}` };
    },
  });
  held.answer(lead, "settings_write", a.id, peer(true), { ending: "answered", answer: true });
  assertEquals(held.list(lead), [], "no longer waiting on a person");
  assertMatch(
    String((() => {
      try {
        held.answer(lead, "settings_write", a.id, peer(true), { ending: "declined" });
      } catch (err) {
        return (err as Error).message;
      }
    })()),
    /no settings_write ask .* is waiting/,
  );
  await Promise.resolve();
  assertEquals(
    emitted.filter((u) => u.name === "settings_write_resolved"),
    [],
    "not before it lands",
  );
  landed.resolve();
  assertEquals(await a.outcome, {
    ending: "answered",
    answer: true,
    result: { text: "wrote true" },
  });
  assertEquals(emitted.at(-1)!.fields, { key: lead, id: a.id, ending: "answered", failure: null });
  assertEquals(ran, 1);

  const b = held.park(lead, {
    kind: "vault_ask",
    request: {},
    signal,
    effect: () => Promise.resolve({ text: "vault__update: the item is gone", isError: true }),
  });
  held.answer(lead, "vault_ask", b.id, peer(true), { ending: "answered", answer: {} });
  await b.outcome;
  assertEquals(emitted.at(-1)!.fields!.failure, "vault__update: the item is gone");
  const c = held.park(lead, {
    kind: "slack_post",
    request: {},
    signal,
    effect: () => Promise.reject(new Error("Slack refused chat.postMessage: is_archived")),
  });
  held.answer(lead, "slack_post", c.id, peer(true), { ending: "answered", answer: {} });
  assertEquals((await c.outcome).ending, "answered");
  assertEquals(emitted.at(-1)!.fields, {
    key: lead,
    id: c.id,
    ending: { answered: { approved: true } },
    failure: "Slack refused chat.postMessage: is_archived",
  });
  const d = held.park(lead, {
    kind: "settings_write",
    request: {},
    signal,
    effect: () => {
      throw new Error("a decline runs no effect");
    },
  });
  held.answer(lead, "settings_write", d.id, peer(true), { ending: "declined" });
  assertEquals((await d.outcome).ending, "declined");
});
