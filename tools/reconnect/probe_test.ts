// The half-open probe both the SDK and the web client run, on a clock the test moves by hand.
// spec: ping ("Every client sends ping after 15 seconds of quiet, and the expiry closes the socket
// so the ordinary reconnect runs"; "A probe already out is neither asked again nor re-armed";
// "Any inbound traffic answers it"); Reaching it (a browser's worst case from the last frame is
// 15 s plus its 65 s deadline).
import { assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { BROWSER_DEADLINE_MS, Probe, QUIET_MS } from "./probe.ts";

function probe(canPing = () => true) {
  const clock = new ManualClock();
  const said: string[] = [];
  const p = new Probe({ quietMs: QUIET_MS, deadlineMs: BROWSER_DEADLINE_MS, clock }, {
    ping: () => canPing() && said.push("ping") > 0,
    expired: () => said.push("expired"),
  });
  return { p, clock, said };
}

Deno.test("probe: the spec's pair, 15 s of quiet and a browser's 65 s deadline", () => {
  assertEquals([QUIET_MS, BROWSER_DEADLINE_MS], [15_000, 65_000]);
});

Deno.test("probe: quiet draws one ping; nothing heard by the deadline expires it, 80 s on", () => {
  const { p, clock, said } = probe();
  p.heard();
  clock.advanceBy(QUIET_MS - 1);
  assertEquals(said, []);
  clock.advanceBy(1);
  assertEquals(said, ["ping"]);
  // Not asked again, nor re-armed, while it is out: neither by the quiet nor by a return.
  p.now();
  clock.advanceBy(BROWSER_DEADLINE_MS - 1);
  assertEquals(said, ["ping"]);
  clock.advanceBy(1);
  assertEquals([said, clock.t], [["ping", "expired"], QUIET_MS + BROWSER_DEADLINE_MS]);
  // Expired is the end: nothing more is armed.
  assertEquals(clock.pending, 0);
  p.heard();
  assertEquals(clock.pending, 0);
});

Deno.test("probe: any frame answers the probe and restarts the quiet", () => {
  const { p, clock, said } = probe();
  p.heard();
  for (let n = 1; n <= 5; n++) {
    clock.advanceBy(QUIET_MS);
    assertEquals(said.length, n);
    clock.advanceBy(BROWSER_DEADLINE_MS - 1);
    p.heard();
  }
  assertEquals(said.every((s) => s === "ping"), true);
  // Frames all along: no ping at all.
  const quiet = probe();
  quiet.p.heard();
  for (let n = 0; n < 10; n++) {
    quiet.clock.advanceBy(QUIET_MS - 1);
    quiet.p.heard();
  }
  assertEquals(quiet.said, []);
});

Deno.test("probe: now() pings at once; a ping that did not go out arms no deadline", () => {
  let open = false;
  const { p, clock, said } = probe(() => open);
  p.heard();
  p.now();
  clock.advanceBy(QUIET_MS);
  assertEquals([said, clock.pending], [[], 0]);
  open = true;
  p.heard();
  p.now();
  assertEquals(said, ["ping"]);
  clock.advanceBy(BROWSER_DEADLINE_MS);
  assertEquals(said, ["ping", "expired"]);
});

Deno.test("probe: stop() disarms both timers", () => {
  const { p, clock, said } = probe();
  p.heard();
  clock.advanceBy(QUIET_MS);
  p.stop();
  assertEquals(clock.pending, 0);
  p.now();
  clock.advanceBy(BROWSER_DEADLINE_MS * 2);
  assertEquals(said, ["ping"]);
});
