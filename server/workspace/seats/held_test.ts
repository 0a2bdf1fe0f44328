// One ask mechanism; spec: session > pending_asks (held kinds lead, in their order,
// arrival order within a kind), subscribe > answering, Editing the config
// (settings_write_pending / settings_write_resolved names the ending).
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import type { SessionUpdate, Slot } from "../../../protocol/mod.ts";
import { Refusal } from "../../subsystem.ts";
import { fakePeer } from "../../../tests/fake_peer.ts";
import { CallEnded } from "../mcp/seat_server.ts";
import { effectFailed, HeldAskRegistry } from "./held.ts";

const lead: Slot = { org: "Acme", project: "alpha", label: "lead" };
const other: Slot = { org: "Acme", project: "beta", label: "lead" };

// One card per kind, as its parker builds it (protocol/held.ts).
const write = (n: number) => ({
  tool: "settings__set",
  keys: [{ path: `server.k${n}`, class: "live" as const, now: null, after: n }],
  reason: null,
});
const doc = {
  path: "a.md",
  reviewable: true,
  reason: "read it",
  document_kind: "markdown" as const,
};
const term = { reason: "type the password", terminal: 1 };
const draft = (text: string) => ({
  id: crypto.randomUUID(),
  workspace: "W1",
  conversation: "C1",
  thread_ts: null,
  action: "post" as const,
  text,
  parts: [text],
});
const vaultCall = {
  tool: "update" as const,
  item: "item-1",
  query: null,
  field: null,
  diff: null,
  attachment: null,
  needs_unlock: false,
};
/** A resolved update's failure words (every `*_resolved` carries them, null when none). */
const failureOf = (u: SessionUpdate | undefined) =>
  u?.fields && "failure" in u.fields ? u.fields.failure : undefined;
/** A resolved update's ending (every `*_resolved` carries one). */
const endingOf = (u: SessionUpdate | undefined) =>
  u?.fields && "ending" in u.fields ? u.fields.ending : undefined;

function registry() {
  const emitted: SessionUpdate[] = [];
  const logged: { event: string; fields?: Record<string, unknown> }[] = [];
  const log = {
    warn: (event: string, fields?: Record<string, unknown>) => logged.push({ event, fields }),
  };
  return { held: new HeldAskRegistry((u) => emitted.push(u), log), emitted, logged };
}

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
    request: write(9),
    signal,
    effect: async (answer) => {
      ran++;
      await landed.promise;
      return { text: `wrote ${answer}` };
    },
  });
  held.answer(lead, "settings_write", a.id, fakePeer(true), { ending: "answered", answer: true });
  assertEquals(held.list(lead), [], "no longer waiting on a person");
  assertMatch(
    String((() => {
      try {
        held.answer(lead, "settings_write", a.id, fakePeer(true), { ending: "declined" });
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
    request: {
      tool: "update",
      item: "item-1",
      query: null,
      field: null,
      diff: null,
      attachment: null,
      needs_unlock: false,
    },
    signal,
    effect: () => Promise.resolve({ text: "vault__update: the item is gone", isError: true }),
  });
  held.answer(lead, "vault_ask", b.id, fakePeer(true), { ending: "answered", answer: {} });
  await b.outcome;
  assertEquals(failureOf(emitted.at(-1)), "vault__update: the item is gone");
  const c = held.park(lead, {
    kind: "slack_post",
    request: draft("archived"),
    signal,
    effect: () => Promise.reject(new Error("Slack refused chat.postMessage: is_archived")),
  });
  held.answer(lead, "slack_post", c.id, fakePeer(true), { ending: "answered", answer: {} });
  assertEquals((await c.outcome).ending, "answered");
  assertEquals(emitted.at(-1)!.fields, {
    key: lead,
    id: c.id,
    ending: { answered: { approved: true } },
    failure: effectFailed("slack_post"),
  });
  const d = held.park(lead, {
    kind: "settings_write",
    request: write(9),
    signal,
    effect: () => {
      throw new Error("a decline runs no effect");
    },
  });
  held.answer(lead, "settings_write", d.id, fakePeer(true), { ending: "declined" });
  assertEquals((await d.outcome).ending, "declined");
});

// An effect that throws at once or rejects resolves the ask with forge's words naming what
// failed; the thrown text reaches the log only, never the update or the agent.
Deno.test("held asks: an effect that throws or rejects resolves in forge's words, cause logged", async () => {
  const { held, emitted, logged } = registry();
  const signal = new AbortController().signal;
  const a = held.park(lead, {
    kind: "settings_write",
    request: write(0),
    signal,
    effect: () => {
      throw new Error("EACCES: permission denied, open '/etc/forge.toml'");
    },
  });
  held.answer(lead, "settings_write", a.id, fakePeer(true), { ending: "answered", answer: true });
  assertEquals(await a.outcome, {
    ending: "answered",
    answer: true,
    result: { text: effectFailed("settings_write"), isError: true },
  });
  assertEquals(emitted.at(-1)!.fields, {
    key: lead,
    id: a.id,
    ending: "answered",
    failure: "the approved settings write did not go through: it failed inside forge " +
      "(forge's log has the cause under held_effect_failed)",
  });
  assertEquals(logged, [{
    event: "held_effect_failed",
    fields: {
      kind: "settings_write",
      id: a.id,
      error: "Error: EACCES: permission denied, open '/etc/forge.toml'",
    },
  }]);
  const b = held.park(lead, {
    kind: "vault_ask",
    request: vaultCall,
    signal,
    effect: () => Promise.reject(new TypeError("Cannot read properties of undefined")),
  });
  held.answer(lead, "vault_ask", b.id, fakePeer(true), { ending: "answered", answer: {} });
  await b.outcome;
  const failure = String(failureOf(emitted.at(-1)));
  assertMatch(failure, /^the approved vault call did not go through/);
  assert(!failure.includes("Cannot read"), "the engine's words stay in the log");
});

Deno.test("held asks: the session ending mid-effect leaves one resolve, the failure in words", async () => {
  const { held, emitted, logged } = registry();
  const call = new AbortController();
  const started = Promise.withResolvers<void>();
  const finish = Promise.withResolvers<void>();
  const a = held.park(lead, {
    kind: "slack_post",
    request: draft("the release notes"),
    signal: call.signal,
    effect: async () => {
      started.resolve();
      await finish.promise;
      throw new Error("fetch failed: socket hang up");
    },
  });
  held.answer(lead, "slack_post", a.id, fakePeer(true), { ending: "answered", answer: {} });
  await started.promise;
  // The CLI goes away while the message is being sent: the call aborts, the seat's asks end.
  call.abort(new CallEnded("session_ended", "the CLI exited"));
  held.endSeat(lead, "session_ended");
  assertEquals(emitted.filter((u) => u.name === "slack_draft_resolved"), [], "not before it lands");
  finish.resolve();
  assertEquals((await a.outcome).ending, "answered", "the answer stands: the effect ran");
  const resolved = emitted.filter((u) => u.name === "slack_draft_resolved");
  assertEquals(resolved.map((u) => u.fields), [{
    key: lead,
    id: a.id,
    ending: { answered: { approved: true } },
    failure: effectFailed("slack_post"),
  }]);
  assertEquals(logged.map((l) => l.event), ["held_effect_failed"]);
  assertEquals(held.list(lead), []);
});

Deno.test("held asks: an emit that throws on resolve still hands the call its outcome", async () => {
  const logged: string[] = [];
  const held = new HeldAskRegistry((u) => {
    if (u.name.endsWith("_resolved")) throw new Error("socket closed");
  }, { warn: (event) => logged.push(event) });
  const a = held.park(lead, {
    kind: "settings_write",
    request: write(0),
    signal: new AbortController().signal,
    effect: () => Promise.resolve({ text: "wrote" }),
  });
  held.answer(lead, "settings_write", a.id, fakePeer(true), { ending: "answered", answer: true });
  assertEquals(await a.outcome, { ending: "answered", answer: true, result: { text: "wrote" } });
  const b = held.park(lead, {
    kind: "settings_write",
    request: write(0),
    signal: new AbortController().signal,
  });
  held.answer(lead, "settings_write", b.id, fakePeer(true), { ending: "declined" });
  assertEquals((await b.outcome).ending, "declined");
  assertEquals(logged, ["held_resolve_failed", "held_resolve_failed"]);
});
