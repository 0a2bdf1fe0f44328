// The roles a connection holds on what it views (the person's control, a terminal's pause), read
// from forge's view and control frames and from what goes out, and asked for again once a
// reconnect re-attached the viewer. spec: terminal_control, terminal_pause, browser_control.
import { assertEquals } from "../../tests/assert.ts";
import type { ClientMessage, Slot } from "../../protocol/mod.ts";
import type { Reattachment } from "./attachments.ts";
import { ManualClock } from "../../tests/manual_clock.ts";
import { type Regain, Roles, VIEW_MS } from "./roles.ts";

const alpha: Slot = { org: "Acme", project: "alpha", label: "lead" };
const terminal = { kind: "terminal_view" as const, seat: alpha };
const browser = { kind: "browser_view" as const, seat: alpha };
const both: Reattachment = { reattached: [terminal, browser], unattached: [] };

/** A terminal_view frame: this connection is viewer `viewer` of terminal `id`. */
const termView = (id: number, viewer: number, controller: number | null) => ({
  kind: "terminal_view",
  seat: alpha,
  id,
  viewer,
  controller,
});
const browserView = (viewer: number, controller: number | null) => ({
  kind: "browser_view",
  id: 1,
  profile: "Acme/default",
  tab: 1,
  viewer,
  controller,
});

/** Roles that held both controls and a pause at the drop, restoring: what went out, what was said. */
function heldAndDropped(clock = new ManualClock()) {
  const r = new Roles({ clock, ms: VIEW_MS });
  r.sent({ kind: "terminal_view", seat: alpha });
  r.heard(termView(1, 3, null));
  r.heard({ kind: "terminal_control", seat: alpha, id: 1, controller: 3 });
  r.sent({ kind: "terminal_pause", paused: true });
  r.heard(browserView(8, 8));
  r.dropped();
  const sent: ClientMessage[] = [];
  const said: Regain[] = [];
  return {
    r,
    sent,
    said,
    restore: (v = both) => r.restore(v, (m) => sent.push(m), (g) => said.push(g)),
  };
}

Deno.test("holds: control is read from the frames naming this viewer; a take by another ends it", () => {
  const r = new Roles();
  r.heard(termView(1, 3, null));
  assertEquals(r.holds("terminal"), false);
  r.heard({ kind: "terminal_control", seat: alpha, id: 1, controller: 3 });
  assertEquals(r.holds("terminal"), true);
  r.heard({ kind: "terminal_control", seat: alpha, id: 1, controller: 4 });
  assertEquals(r.holds("terminal"), false);
  r.heard(browserView(8, 8));
  assertEquals(r.holds("browser"), true);
  r.sent({ kind: "browser_detach" });
  assertEquals(r.holds("browser"), false);
});

Deno.test("restore: control taken again once the new view shows it free, then the pause", () => {
  const { r, sent, said, restore } = heldAndDropped();
  restore();
  assertEquals(sent, []); // nothing until the new viewers' frames say who they are
  r.heard(termView(5, 1, null));
  assertEquals(sent, [
    { kind: "terminal_control", seat: alpha, id: 5, take: true },
    { kind: "terminal_pause", paused: true },
  ]);
  r.heard({ kind: "terminal_control", seat: alpha, id: 5, controller: 1 });
  assertEquals(said, []); // the browser's take is still out
  r.heard(browserView(2, null));
  assertEquals(sent.at(-1), { kind: "browser_control", take: true });
  r.heard(browserView(2, 2));
  assertEquals(said, [{
    regained: [
      { role: "terminal_pause", seat: alpha },
      { role: "terminal_control", seat: alpha },
      { role: "browser_control", seat: alpha },
    ],
    lost: [],
  }]);
});

Deno.test("restore: control someone took meanwhile is not taken from them; it is said why", () => {
  const { r, sent, said, restore } = heldAndDropped();
  restore();
  r.heard(termView(5, 2, 1));
  r.heard(browserView(9, 4));
  assertEquals(sent, [{ kind: "terminal_pause", paused: true }]);
  assertEquals(said, [{
    regained: [{ role: "terminal_pause", seat: alpha }],
    lost: [
      {
        role: { role: "terminal_control", seat: alpha },
        why: "viewer 1 took control of terminal 5 of Acme/alpha/lead meanwhile",
      },
      {
        role: { role: "browser_control", seat: alpha },
        why: "viewer 4 took control of the browser tab of Acme/alpha/lead meanwhile",
      },
    ],
  }]);
  // Not held at the next drop either: the next reconnect asks for none of it.
  r.dropped();
  const again: Regain[] = [];
  r.restore({ reattached: [terminal], unattached: [] }, () => {}, (g) => again.push(g));
  r.heard(termView(6, 1, null));
  assertEquals(again, [{ regained: [{ role: "terminal_pause", seat: alpha }], lost: [] }]);
});

Deno.test("restore: a take forge refused, and a viewer not attached again, are lost in words", () => {
  const { r, said, restore } = heldAndDropped();
  restore({ reattached: [browser], unattached: [{ attachment: terminal, why: "no seat" }] });
  r.heard(browserView(2, null));
  r.heard({ kind: "error", what: "browser_control", why: "browser_control: tab 1 is gone" });
  assertEquals(said, [{
    regained: [],
    lost: [
      { role: { role: "terminal_control", seat: alpha }, why: "not attached again: no seat" },
      { role: { role: "terminal_pause", seat: alpha }, why: "not attached again: no seat" },
      { role: { role: "browser_control", seat: alpha }, why: "browser_control: tab 1 is gone" },
    ],
  }]);
});

Deno.test("restore: nothing held says at once; a new attach by hand starts unpaused", () => {
  const r = new Roles();
  r.sent({ kind: "terminal_view", seat: alpha });
  r.sent({ kind: "terminal_pause", paused: true });
  r.sent({ kind: "terminal_view", seat: alpha, id: 2 });
  r.heard(termView(2, 1, null));
  r.dropped();
  const said: Regain[] = [];
  r.restore({ reattached: [terminal], unattached: [] }, () => {}, (g) => said.push(g));
  assertEquals(said, [{ regained: [], lost: [] }]);
});

Deno.test("restore: control of a viewer not held at the drop is not wanted on a later one", () => {
  const { r, sent, said, restore } = heldAndDropped();
  // The browser attach was refused before the drop (its tab let go): only the terminal is back.
  restore({ reattached: [terminal], unattached: [] });
  r.dropped(); // again before the terminal's view came: what it owes is still owed
  r.restore(both, (m) => sent.push(m), (g) => said.push(g));
  r.heard(termView(6, 1, null));
  r.heard(browserView(2, null));
  r.heard({ kind: "terminal_control", seat: alpha, id: 6, controller: 1 });
  assertEquals(sent.filter((m) => m.kind === "browser_control"), []);
  assertEquals(said[0].regained.map((g) => g.role), ["terminal_pause", "terminal_control"]);
});

Deno.test("restore: a view frame that never comes loses its roles at the bound, in words", () => {
  const clock = new ManualClock();
  const { r, sent, said, restore } = heldAndDropped(clock);
  restore();
  r.heard(browserView(2, null));
  r.heard(browserView(2, 2));
  assertEquals(said, []); // the terminal's view frame is still owed
  clock.advanceBy(VIEW_MS);
  const why = `no terminal_view frame came for Acme/alpha/lead's terminal within 10 s of its ` +
    "re-attach";
  assertEquals(said, [{
    regained: [{ role: "browser_control", seat: alpha }],
    lost: [
      { role: { role: "terminal_control", seat: alpha }, why },
      { role: { role: "terminal_pause", seat: alpha }, why },
    ],
  }]);
  // A view frame after the bound asks for nothing: those roles are no longer held.
  r.heard(termView(5, 1, null));
  assertEquals(sent, [{ kind: "browser_control", take: true }]);
  assertEquals(said.length, 1);
});

Deno.test("restore: the bound is let go once every role settled, or the socket dropped", () => {
  const clock = new ManualClock();
  const { r, said, restore } = heldAndDropped(clock);
  restore();
  assertEquals(clock.pending, 1);
  r.dropped();
  assertEquals(clock.pending, 0);
  r.restore(both, () => {}, (g) => said.push(g));
  r.heard(termView(5, 1, 1));
  r.heard(browserView(2, 2));
  assertEquals(said.length, 1);
  assertEquals(clock.pending, 0);
});

Deno.test("restore: a pause the caller sends while the view is owed supersedes the one owed", () => {
  const r = new Roles({ clock: new ManualClock(), ms: VIEW_MS });
  r.sent({ kind: "terminal_view", seat: alpha });
  r.heard(termView(1, 3, null));
  r.sent({ kind: "terminal_pause", paused: true });
  r.dropped();
  const sent: ClientMessage[] = [];
  const said: Regain[] = [];
  r.restore({ reattached: [terminal], unattached: [] }, (m) => sent.push(m), (g) => said.push(g));
  r.sent({ kind: "terminal_pause", paused: false });
  assertEquals(said, [{ regained: [], lost: [] }]);
  r.heard(termView(5, 1, null));
  assertEquals(sent, []); // the owed pause is not said over the caller's resume
});
