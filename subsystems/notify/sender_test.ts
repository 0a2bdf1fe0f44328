// docs/notify.md "Never blocks, never loses": a failed send is retried with back-off for
// retry_minutes, then dropped with a log record; a hung server is a failure once the attempt's
// deadline passes; every send and failure is logged by channel, never with a token.
import { memoryLogger } from "../../server/log.ts";
import { assertEquals, assertMatch } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import type { Channel } from "./channels.ts";
import { SendFailure } from "./http.ts";
import type { Push } from "./push.ts";
import { ATTEMPT_MS, backoffMs, Sender } from "./sender.ts";

const PUSH: Push = {
  seat: { org: "Acme", project: "alpha", label: "lead" },
  kind: "ask",
  title: "alpha/lead needs you",
  body: "Bash: ls",
  count: 1,
  priority: "high",
  url: null,
};

/** A channel whose one target answers as `answer` says, attempt by attempt. */
function fakeChannel(answer: (n: number, signal: AbortSignal) => Promise<void>) {
  let attempts = 0;
  const channel: Channel = {
    name: "ntfy",
    off: () => null,
    targets: () => [{ label: "ntfy.test:443", send: (_p, signal) => answer(++attempts, signal) }],
  };
  return { channel, attempts: () => attempts };
}

function sender(channel: Channel, retryMinutes = 10) {
  const clock = new ManualClock();
  const log = memoryLogger();
  let changes = 0;
  const s = new Sender({
    clock,
    log,
    channels: [channel],
    retryMs: () => retryMinutes * 60_000,
    changed: () => changes++,
    crashed: (error) => {
      throw error;
    },
  });
  const events = () => log.records.map((r) => r.event);
  return { clock, log, s, events, changes: () => changes };
}

const refused = () => Promise.reject(new SendFailure("ntfy at ntfy.test:443 answered HTTP 503"));

Deno.test("a refused send is retried with back-off and lands; the channel goes failing, then ok", async () => {
  const f = fakeChannel((n) => (n <= 2 ? refused() : Promise.resolve()));
  const w = sender(f.channel);
  w.s.send(PUSH, () => true);
  await w.clock.advanceSettling(0);
  assertEquals(w.s.state("ntfy"), {
    state: "failing",
    why: "ntfy at ntfy.test:443 answered HTTP 503",
  });
  await w.clock.advanceSettling(backoffMs(1) - 1);
  assertEquals(f.attempts(), 1, "the first retry waits its back-off");
  await w.clock.advanceSettling(1 + backoffMs(2));
  assertEquals(f.attempts(), 3);
  assertEquals(w.events(), ["notify_failed", "notify_failed", "notify_sent"]);
  assertEquals(w.s.state("ntfy"), { state: "ok", why: null });
  assertEquals(w.changes(), 2, "failing, then ok");
  assertEquals(w.clock.pending, 0);
});

Deno.test("a send still failing when retry_minutes runs out is dropped with a record", async () => {
  const f = fakeChannel(refused);
  const w = sender(f.channel, 1);
  w.s.send(PUSH, () => true);
  await w.clock.advanceSettling(10 * 60_000);
  const dropped = w.log.records.filter((r) => r.event === "notify_dropped");
  assertEquals(dropped.length, 1);
  // Tries at 0, 2, 6, 14 and 30 s; the next would be at 62 s, past the minute.
  assertEquals(f.attempts(), 5);
  assertEquals(w.clock.pending, 0, "nothing more is tried");
  assertMatch(JSON.stringify(dropped[0]), /HTTP 503/);
});

Deno.test("a hung server fails at the attempt's deadline and the retry lands", async () => {
  const f = fakeChannel((n, signal) =>
    n === 1
      ? new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)))
      : Promise.resolve()
  );
  const w = sender(f.channel);
  w.s.send(PUSH, () => true);
  await w.clock.advanceSettling(ATTEMPT_MS);
  assertEquals(w.s.state("ntfy"), {
    state: "failing",
    why: `ntfy at ntfy.test:443 did not answer within ${ATTEMPT_MS / 1000} s`,
  });
  await w.clock.advanceSettling(backoffMs(1));
  assertEquals(w.events(), ["notify_failed", "notify_sent"]);
});

Deno.test("a refusal retrying cannot help is not retried, and an unwanted push is withdrawn", async () => {
  const final = fakeChannel(() =>
    Promise.reject(new SendFailure("ntfy refused the credential", true))
  );
  const a = sender(final.channel);
  a.s.send(PUSH, () => true);
  await a.clock.advanceSettling(60 * 60_000);
  assertEquals(final.attempts(), 1);
  const f = fakeChannel(refused);
  const b = sender(f.channel);
  let wanted = true;
  b.s.send(PUSH, () => wanted);
  await b.clock.advanceSettling(0);
  wanted = false; // its ask was answered meanwhile
  await b.clock.advanceSettling(60 * 60_000);
  assertEquals(f.attempts(), 1);
  assertEquals(b.events(), ["notify_failed", "notify_withdrawn"]);
});

Deno.test("notify_test answers ok, or why not in words, and off names what is missing", async () => {
  const ok = sender(fakeChannel(() => Promise.resolve()).channel);
  assertEquals(await ok.s.test("ntfy", PUSH), { ok: true, why: null });
  const down = sender(fakeChannel(refused).channel);
  assertEquals(await down.s.test("ntfy", PUSH), {
    ok: false,
    why: "ntfy at ntfy.test:443 answered HTTP 503",
  });
  assertEquals(down.clock.pending, 0, "a test is one attempt");
  const off: Channel = {
    name: "ntfy",
    off: () => "no [notify.ntfy] url in forge.toml",
    targets: () => [],
  };
  const o = sender(off);
  assertEquals(await o.s.test("ntfy", PUSH), {
    ok: false,
    why: "ntfy is off: no [notify.ntfy] url in forge.toml",
  });
  assertEquals(o.s.state("ntfy"), { state: "off", why: "no [notify.ntfy] url in forge.toml" });
});

Deno.test("notify_test tries every target at once: two hung ones answer at one deadline", async () => {
  const hung = (label: string) => ({
    label,
    send: (_p: Push, signal: AbortSignal) =>
      new Promise<void>((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason))
      ),
  });
  const channel: Channel = {
    name: "webpush",
    off: () => null,
    targets: () => [hung("a.push.test:443"), hung("b.push.test:443")],
  };
  const w = sender(channel);
  let reply: unknown = null;
  w.s.test("webpush", PUSH).then((r) => (reply = r));
  await w.clock.advanceSettling(ATTEMPT_MS);
  assertEquals(reply, {
    ok: false,
    why: `webpush at a.push.test:443 did not answer within ${ATTEMPT_MS / 1000} s; ` +
      `webpush at b.push.test:443 did not answer within ${ATTEMPT_MS / 1000} s`,
  });
});

Deno.test("a target gone (a dropped subscription) leaves the channel ok", async () => {
  const gone = fakeChannel(() =>
    Promise.reject(new SendFailure("the push service says it is gone", true, 410, true))
  );
  const w = sender(gone.channel);
  w.s.send(PUSH, () => true);
  await w.clock.advanceSettling(60 * 60_000);
  assertEquals([gone.attempts(), w.s.state("ntfy"), w.changes()], [
    1,
    { state: "ok", why: null },
    0,
  ]);
});
