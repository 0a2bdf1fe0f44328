// A held ask's answer runs its effect, and the ask resolves once the effect has landed or
// failed (spec: session > pending_asks; Editing the config: settings_write_resolved names the
// ending and a failure in forge's words). The registry's parking and answering are held_test.ts.
import { assert, assertEquals, assertMatch } from "../../../tests/assert.ts";
import { fakePeer } from "../../../tests/fake_peer.ts";
import { draft, failureOf, lead, registry, vaultCall, write } from "../../../tests/held_support.ts";
import { CallEnded } from "../mcp/seat_server.ts";
import { effectFailed, HeldAskRegistry } from "./held.ts";

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
    request: vaultCall,
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
