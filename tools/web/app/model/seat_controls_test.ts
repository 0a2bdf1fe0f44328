import { assertEquals } from "../../../../tests/assert.ts";
import { decodeCommand } from "../../../../protocol/mod.ts";
import { headLifecycle, seatControls } from "./seat_controls.ts";

// A seat's session moved from its page: Start or Restart (spawn_project for a lead, spawn_session
// with the worker's own label for a worker), Stop (close_session), a new conversation
// (new_session in the seat's directory). spec: home > agents (lifecycle); session > state
// (scan_cwd); the original's session commands.

const lead = { org: "Acme", project: "alpha", label: "lead" };
const worker = { org: "Acme", project: "alpha", label: "w1" };
const offered = (slot: typeof lead, lifecycle: string | null, cwd: string | null = "/w") =>
  seatControls(slot, lifecycle, cwd).map((c) => [c.id, c.label]);

Deno.test("seat controls: each lifecycle offers the presses that fit it", () => {
  assertEquals(offered(lead, "Sleeping"), [["start", "Start"]]);
  assertEquals(offered(lead, "Failed"), [["start", "Restart"]]);
  assertEquals(offered(lead, "Spawning"), []);
  for (const live of ["Idle", "Running", "Attention", "AuthRequired", "LoggedOut"]) {
    assertEquals(offered(lead, live), [["stop", "Stop"], ["new", "New conversation"]]);
  }
  // Before the record is read there is no directory to start a conversation in.
  assertEquals(offered(lead, "Idle", null), [["stop", "Stop"]]);
  assertEquals(offered(lead, null), []);
});

Deno.test("seat controls: each press is a command protocol/ decodes, the ends asked first", () => {
  const [restart] = seatControls(lead, "Failed", "/w");
  assertEquals(decodeCommand(restart.command), {
    name: "spawn_project",
    fields: { project_name: "alpha", launch_settings: {} },
  });
  assertEquals(restart.confirm, null);
  const [start] = seatControls(worker, "Failed", "/w");
  assertEquals(decodeCommand(start.command), {
    name: "spawn_session",
    fields: { key: worker, role: { worker: { label: "w1" } }, launch_settings: {} },
  });
  const [stop, fresh] = seatControls(worker, "Idle", "/trees/w1");
  assertEquals(decodeCommand(stop.command), {
    name: "close_session",
    fields: { session_key: worker },
  });
  assertEquals(decodeCommand(fresh.command), {
    name: "new_session",
    fields: { key: worker, cwd: "/trees/w1", launch_settings: {} },
  });
  assertEquals([stop.confirm !== null, fresh.confirm !== null], [true, true]);
});

Deno.test("a seat's page heads with its stream's ask or turn, but LoggedOut over both", () => {
  const quiet = { asking: false, turnInFlight: false };
  assertEquals(headLifecycle("Idle", quiet), "Idle");
  assertEquals(headLifecycle("Idle", { asking: false, turnInFlight: true }), "Running");
  assertEquals(headLifecycle("Running", { asking: true, turnInFlight: true }), "Attention");
  assertEquals(headLifecycle(null, quiet), null);
  // A turn on a seat with no credential ends "Not logged in": the row's LoggedOut stands.
  assertEquals(headLifecycle("LoggedOut", { asking: false, turnInFlight: true }), "LoggedOut");
  assertEquals(headLifecycle("LoggedOut", { asking: true, turnInFlight: true }), "LoggedOut");
});
