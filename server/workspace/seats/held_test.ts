// One ask mechanism; spec: session > pending_asks (held kinds lead, in their order,
// arrival order within a kind), subscribe > answering, Editing the config
// (settings_write_pending / settings_write_resolved names the ending). How an answered ask's
// effect resolves it is held_resolve_test.ts.
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import { Refusal } from "../../subsystem.ts";
import { fakePeer } from "../../../tests/fake_peer.ts";
import {
  doc,
  draft,
  endingOf,
  lead,
  other,
  registry,
  term,
  write,
} from "../../../tests/held_support.ts";
import { CallEnded } from "../mcp/seat_server.ts";

Deno.test("held asks: pending_asks leads with the kinds' order, arrival order within one", () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, { kind: "settings_write", request: write(0), signal });
  const b = held.park(lead, { kind: "document_hand_off", request: doc, signal });
  const c = held.park(lead, { kind: "settings_write", request: write(1), signal });
  held.park(other, { kind: "slack_post", request: draft("hi"), signal });
  assertEquals(held.list(lead).map((x) => x.id), [b.id, a.id, c.id]);
  assertEquals(held.list(lead)[0].request, { ...doc, id: b.id });
  assert(held.handingOff(lead), "a document hand-off holds the machine turn");
  assert(!held.handingOff(other), "a Slack draft is no hand-off");
  assertEquals(emitted[0], {
    name: "settings_write_pending",
    fields: { key: lead, ...write(0), id: a.id },
  });
  assertEquals(emitted.at(-1)!.name, "slack_post_pending");
  const seqs = held.list(lead).map((x) => x.seq);
  assertEquals(new Set(seqs).size, 3, "every ask has its own seq");
});

Deno.test("held asks: answered and declined reach the parker and name the ending", async () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const a = held.park<{ ok: boolean }>(lead, {
    kind: "settings_write",
    request: write(0),
    signal,
  });
  held.answer(lead, "settings_write", a.id, fakePeer(true), {
    ending: "answered",
    answer: { ok: true },
  });
  assertEquals(await a.outcome, { ending: "answered", answer: { ok: true } });
  assertEquals(emitted.at(-1), {
    name: "settings_write_resolved",
    fields: { key: lead, id: a.id, ending: "answered", failure: null },
  });
  const b = held.park(lead, { kind: "settings_write", request: write(1), signal });
  held.answer(lead, "settings_write", b.id, fakePeer(true), { ending: "declined" });
  assertEquals((await b.outcome).ending, "declined");
  assertEquals(held.list(lead), []);
});

Deno.test("held asks: a non-answering connection, an unknown id, another seat are refused by name", () => {
  const { held } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, { kind: "settings_write", request: write(0), signal });
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
    refusal(() =>
      held.answer(lead, "settings_write", a.id, fakePeer(false), { ending: "declined" })
    ),
    /respond_settings_write: Acme\/alpha\/lead: this connection did not declare answering/,
  );
  assertMatch(
    refusal(() =>
      held.answer(lead, "settings_write", "nope", fakePeer(true), { ending: "declined" })
    ),
    /no settings_write ask nope is waiting/,
  );
  assertMatch(
    refusal(() =>
      held.answer(other, "settings_write", a.id, fakePeer(true), { ending: "declined" })
    ),
    /is parked on Acme\/alpha\/lead, not this seat/,
  );
  assertMatch(
    refusal(() =>
      held.answer(lead, "document_hand_off", a.id, fakePeer(true), { ending: "declined" })
    ),
    /answer_document_hand_off: .*no document_hand_off ask/,
  );
  assertEquals(held.list(lead).length, 1, "every refusal left the ask parked");
});

Deno.test("held asks: a cancelled call, an ended session, an expiry end the ask by name", async () => {
  const { held, emitted } = registry();
  const call = new AbortController();
  const a = held.park(lead, { kind: "terminal_hand_off", request: term, signal: call.signal });
  call.abort(new CallEnded("cancelled", "AbortError: remote-cancel"));
  assertEquals((await a.outcome).ending, "cancelled");
  const b = held.park(lead, {
    kind: "document_hand_off",
    request: doc,
    signal: new AbortController().signal,
  });
  held.endSeat(lead, "session_ended");
  assertEquals((await b.outcome).ending, "session_ended");
  const c = held.park(lead, {
    kind: "slack_post",
    request: draft("later"),
    signal: new AbortController().signal,
    expiresMs: 5,
  });
  assertEquals((await c.outcome).ending, "expired");
  assertEquals(
    emitted.filter((u) => u.name.endsWith("_resolved")).map(endingOf),
    ["cancelled", "session_ended", "expired"],
  );
  const aborted = new AbortController();
  aborted.abort(new CallEnded("session_ended", "gone"));
  const d = held.park(lead, {
    kind: "settings_write",
    request: write(2),
    signal: aborted.signal,
  });
  assertEquals((await d.outcome).ending, "session_ended", "an already-aborted call parks nothing");
});

// The original's slack_post_pending and slack_draft_resolved: the draft rides `draft`, the
// ending is the original's SlackDraftEnding.
Deno.test("held asks: a Slack draft is `{key, draft}` and ends answered {approved} / expired / abandoned", async () => {
  const { held, emitted } = registry();
  const signal = new AbortController().signal;
  const hi = draft("hi");
  const a = held.park(lead, { kind: "slack_post", request: hi, signal });
  assertEquals(emitted.at(-1), {
    name: "slack_post_pending",
    fields: { key: lead, draft: { ...hi, id: a.id } },
  });
  held.answer(lead, "slack_post", a.id, fakePeer(true), { ending: "declined" });
  await a.outcome;
  assertEquals(emitted.at(-1)!.fields, {
    key: lead,
    id: a.id,
    ending: { answered: { approved: false } },
    failure: null,
  });
  const b = held.park(lead, { kind: "slack_post", request: draft("b"), signal, expiresMs: 1 });
  assertEquals((await b.outcome).ending, "expired");
  assertEquals(endingOf(emitted.at(-1)), "expired");
  const stop = new AbortController();
  const c = held.park(lead, { kind: "slack_post", request: draft("c"), signal: stop.signal });
  stop.abort();
  assertEquals((await c.outcome).ending, "cancelled");
  assertEquals(endingOf(emitted.at(-1)), "abandoned");
});
