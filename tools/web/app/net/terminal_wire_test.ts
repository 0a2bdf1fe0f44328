import { assertEquals } from "../../../../tests/assert.ts";
import type { ClientMessage, ErrorFrame, ServerMessage } from "../../../../protocol/mod.ts";
import type { ForgeClient } from "./client.ts";
import { Store } from "./store.ts";
import { TerminalWire } from "./terminal_wire.ts";

// The terminal pane's wire logic against a recording client: after a drop, the attach that
// follows gives back what the one before held - its size, the person's control unless someone
// took it meanwhile, a hidden page's pause. spec: terminal_view, terminal_resize,
// terminal_control ("dropping the connection releases it"), terminal_pause.

const SEAT = { org: "Acme", project: "term", label: "lead" };

function world() {
  const store = new Store();
  const sent: ClientMessage[] = [];
  const fake = {
    store,
    state: store.state,
    send: (m: ClientMessage) => (sent.push(m), true),
    note: (m: ErrorFrame) => store.state.errors.push({ ...m, at: 0 }),
  };
  const wire = new TerminalWire(fake as unknown as ForgeClient);
  const drawn: string[] = [];
  const sink = {
    repaint: (_s: string, cols: number, rows: number) => drawn.push(`repaint ${cols}x${rows}`),
    write: () => {},
    resize: (cols: number, rows: number) => drawn.push(`resize ${cols}x${rows}`),
  };
  /** forge's terminal_view for this page: viewer `viewer` of terminal `id`. */
  const view = (id: number, viewer: number, controller: number | null, cols = 80, rows = 24) =>
    wire.message({
      kind: "terminal_view",
      seat: SEAT,
      id,
      cols,
      rows,
      seq: 0,
      screen: "",
      viewers: 1,
      viewer,
      controller,
    } as ServerMessage);
  return { wire, sent, drawn, sink, view, state: store.state };
}

/** A page that drove terminal 1 at 120x36 as viewer 4, then lost its socket (link down). */
function droveThenDropped() {
  const w = world();
  w.wire.attach(SEAT, w.sink);
  w.view(1, 4, null);
  w.wire.resize(120, 36);
  w.wire.update(
    {
      name: "terminal_changed",
      fields: { key: SEAT, terminal: { id: 1, cols: 120, rows: 36 } },
    } as Parameters<TerminalWire["update"]>[0],
  );
  w.wire.control(true);
  w.wire.message({ kind: "terminal_control", seat: SEAT, id: 1, controller: 4 } as ServerMessage);
  w.state.link = "down";
  w.wire.lost();
  w.wire.detach(); // the pane's effect lets the attach go as the link goes
  w.wire.lost();
  w.state.link = "open";
  w.sent.length = 0;
  w.drawn.length = 0;
  return w;
}

Deno.test("terminal wire: after a drop the attach gives back its size, control and pause", () => {
  const w = droveThenDropped();
  w.wire.pause(true); // the page went to the background while the link was down
  assertEquals(w.sent, [], "nothing is attached to pause");
  w.wire.attach(SEAT, w.sink);
  w.view(7, 1, null); // the new run's shell, at its default size
  assertEquals(w.drawn, ["repaint 80x24", "resize 120x36"]);
  assertEquals(w.sent.slice(1), [
    { kind: "terminal_pause", paused: true },
    { kind: "terminal_resize", seat: SEAT, id: 7, cols: 120, rows: 36 },
    { kind: "terminal_control", seat: SEAT, id: 7, take: true },
  ]);
  // A resume's fresh screen is not a new attach: nothing is given back twice.
  w.wire.pause(false);
  w.view(7, 1, 1, 120, 36);
  assertEquals(w.sent.slice(4), [{ kind: "terminal_pause", paused: false }]);
});

Deno.test("terminal wire: control someone took meanwhile is not taken from them; it is said", () => {
  const w = droveThenDropped();
  w.wire.attach(SEAT, w.sink);
  w.view(7, 2, 1);
  assertEquals(w.sent.filter((m) => m.kind === "terminal_control"), []);
  assertEquals(
    w.state.errors.map((e) => e.why),
    ["You had this terminal's control before the connection dropped; viewer 1 took it meanwhile"],
  );
});

Deno.test("terminal wire: a pane lowered by the person, or another seat's, gets nothing back", () => {
  const w = droveThenDropped();
  w.wire.attach({ ...SEAT, label: "other" }, w.sink);
  w.wire.attach(SEAT, w.sink);
  w.view(7, 1, null);
  assertEquals(w.sent.map((m) => m.kind), ["terminal_view", "terminal_view"]);
  const lowered = droveThenDropped();
  lowered.wire.attach(SEAT, lowered.sink);
  lowered.wire.detach(); // the link is open: the person's own lowering
  lowered.wire.attach(SEAT, lowered.sink);
  lowered.view(8, 1, null);
  assertEquals(lowered.sent.map((m) => m.kind), [
    "terminal_view",
    "terminal_detach",
    "terminal_view",
  ]);
});

Deno.test("terminal wire: a second drop before the first was given back still owes it", () => {
  const w = droveThenDropped();
  const dropAgain = () => {
    w.state.link = "down";
    w.wire.lost();
    w.wire.detach();
    w.state.link = "open";
    w.sent.length = 0;
  };
  w.wire.attach(SEAT, w.sink);
  dropAgain(); // before the attach landed
  w.wire.attach(SEAT, w.sink);
  w.view(7, 1, null);
  dropAgain(); // landed, its resize and take asked for and not yet answered
  w.wire.attach(SEAT, w.sink);
  w.view(9, 1, null);
  assertEquals(w.sent.slice(1), [
    { kind: "terminal_resize", seat: SEAT, id: 9, cols: 120, rows: 36 },
    { kind: "terminal_control", seat: SEAT, id: 9, take: true },
  ]);
});

Deno.test("terminal wire: a shell forge closed as it went down is given back on the next one", () => {
  const w = world();
  w.wire.attach(SEAT, w.sink);
  w.view(1, 4, 4, 100, 30);
  // Going down, forge closes its shells (terminal_changed to null) and then the socket.
  w.wire.update(
    {
      name: "terminal_changed",
      fields: { key: SEAT, terminal: null },
    } as Parameters<TerminalWire["update"]>[0],
  );
  w.state.link = "down";
  w.wire.lost();
  w.wire.detach();
  w.state.link = "open";
  w.sent.length = 0;
  w.wire.attach(SEAT, w.sink);
  w.view(2, 1, null);
  assertEquals(w.sent.slice(1), [
    { kind: "terminal_resize", seat: SEAT, id: 2, cols: 100, rows: 30 },
    { kind: "terminal_control", seat: SEAT, id: 2, take: true },
  ]);
});

Deno.test("terminal wire: an attach sent while the socket flapped still owes what was held", () => {
  const w = droveThenDropped();
  // The pane attached on a socket that went before anything landed, and no drop was said after.
  w.state.link = "down";
  w.wire.attach(SEAT, w.sink);
  w.wire.detach();
  w.state.link = "open";
  w.wire.attach(SEAT, w.sink);
  w.view(7, 1, null);
  const given = w.sent.filter((m) => m.kind === "terminal_resize" || m.kind === "terminal_control");
  assertEquals(given, [
    { kind: "terminal_resize", seat: SEAT, id: 7, cols: 120, rows: 36 },
    { kind: "terminal_control", seat: SEAT, id: 7, take: true },
  ]);
});
