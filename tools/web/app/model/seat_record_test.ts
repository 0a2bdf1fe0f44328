import { assertEquals } from "../../../../tests/assert.ts";
import type { Wire } from "../../../../protocol/mod.ts";
import { seatSnapshot as snapshot } from "../../../../tests/web_seat_snapshot.ts";
import { readUpdate } from "../net/updates.ts";
import { SeatModel } from "./seat.ts";

// The seat's record as the page draws it, moved by the updates that change it. spec: session >
// header (turn_in_flight), failure; the original's connection_failed and releasing; session >
// pending_asks and a held ask's `_resolved` (forge's `failure` beside its ending).

const slot = { org: "Acme", project: "alpha", label: "lead" };
const frame = (msg: Wire) => ({ chat_appended: { key: slot, msg } });

function running(): { m: SeatModel; feed: (u: Wire) => void } {
  const m = new SeatModel(slot);
  m.seed(snapshot(0));
  let n = 0;
  const feed = (u: Wire) => void m.accept(readUpdate(u), n++, 1);
  feed(frame({ type: "user", message: { content: "count" }, uuid: "p1", source: "you" }));
  assertEquals(m.turnInFlight, true);
  return { m, feed };
}

Deno.test("seat record: a CLI that dies mid-turn leaves no turn in flight, and says why", () => {
  const { m, feed } = running();
  const message = "claude exited (code null, signal SIGKILL) mid-turn";
  feed({ connection_failed: { key: slot, message, fatal: true } });
  assertEquals(m.turnInFlight, false);
  assertEquals(m.failure, message);
  // A fresh occupant clears the failure.
  feed({
    connected: {
      key: slot,
      session_id: "s2",
      cwd: "/",
      current_model: null,
      available_models: [],
      mode: { permission_mode: null },
      history: [],
      compaction_count: 0,
    },
  });
  assertEquals(m.failure, null);
});

Deno.test("seat record: a seat being closed runs no turn", () => {
  const { m, feed } = running();
  feed({ releasing: { key: slot } });
  assertEquals(m.turnInFlight, false);
});

Deno.test("seat record: the record's failure is drawn in its words", () => {
  const m = new SeatModel(slot);
  const failure = { message: "claude exited (code 1) before it was ready", code: 1 };
  m.seed({ ...snapshot(0), failure: { ...failure, signal: null, stderr_tail: "" } });
  assertEquals(m.failure, failure.message);
  m.seed(snapshot(0));
  assertEquals(m.failure, null);
});

Deno.test("seat record: an approved ask whose effect failed leaves its card and says why", () => {
  const m = new SeatModel(slot);
  m.seed(snapshot(0));
  let n = 0;
  const feed = (u: Wire) => void m.accept(readUpdate(u), n++, 1);
  const request = {
    tool: "settings__set",
    keys: [{ path: "client.mark", class: "live", now: null, after: "lanes" }],
    reason: null,
  };
  feed({ settings_write_pending: { key: slot, id: "w1", ...request } });
  assertEquals(m.asks.length, 1);
  const failure = "settings__set: the person approved, but the write was refused (io)";
  feed({ settings_write_resolved: { key: slot, id: "w1", ending: "answered", failure } });
  assertEquals(m.asks, []);
  assertEquals(m.notices.map((x) => [x.severity, x.text]), [
    ["error", `settings_write: ${failure}`],
  ]);
});
