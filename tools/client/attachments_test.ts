// The viewer attachments a connection holds, read from what it sends and what forge answers, and
// asked for again on a new socket at the size last sent. spec: terminal_view, terminal_detach,
// terminal_resize; browser_view, browser_view_page, browser_detach, browser_resize.
import { assertEquals } from "../../tests/assert.ts";
import type { ClientMessage, Slot } from "../../protocol/mod.ts";
import { Attachments, type Reattachment } from "./attachments.ts";

const alpha: Slot = { org: "Acme", project: "alpha", label: "lead" };

/** Restores `a`, answering each attach with `answer(message)`; what went out and what was said. */
function restore(a: Attachments, answer: (m: ClientMessage & { reply_to?: unknown }) => unknown) {
  const sent: ClientMessage[] = [];
  let said: Reattachment | null = null;
  let n = 40;
  a.restore((m) => sent.push(m), () => ++n, (r) => (said = r));
  for (const m of [...sent]) {
    if ("reply_to" in m && typeof m.reply_to === "number") {
      assertEquals(a.heard({ kind: "reply", reply_to: m.reply_to, body: answer(m) }), true);
    }
  }
  return { sent, said: said as Reattachment | null };
}

Deno.test("held: an attach once it lands, with the size sent after it; a detach lets it go", () => {
  const a = new Attachments();
  a.sent({ kind: "terminal_view", seat: alpha, reply_to: 3 });
  a.sent({ kind: "terminal_resize", seat: alpha, id: 1, cols: 80, rows: 24 });
  assertEquals(a.held, []); // not answered yet
  a.heard({ kind: "reply", reply_to: 3, body: { ok: true, id: 1 } });
  a.sent({ kind: "browser_view_page", seat: alpha, target: "T1" });
  a.heard({ kind: "browser_view", id: 2, profile: "Acme/default", tab: 1 });
  assertEquals(a.held, [{ kind: "terminal_view", seat: alpha }, {
    kind: "browser_view_page",
    seat: alpha,
    target: "T1",
  }]);
  a.sent({ kind: "terminal_detach" });
  assertEquals(a.held, [{ kind: "browser_view_page", seat: alpha, target: "T1" }]);
});

Deno.test("held: a refused browser attach drops the tab viewed; a refused terminal one keeps it", () => {
  const a = new Attachments();
  a.sent({ kind: "terminal_view", seat: alpha, id: 1 });
  a.heard({ kind: "terminal_view", seat: alpha, id: 1 });
  a.sent({ kind: "browser_view", seat: alpha, tab: 1, reply_to: 5 });
  a.heard({ kind: "reply", reply_to: 5, body: { ok: true, profile: "Acme/default", tab: 1 } });
  a.sent({ kind: "terminal_view", seat: alpha, id: 9 });
  a.heard({ kind: "error", what: "terminal_view", why: "terminal_view: no", seat: alpha });
  a.sent({ kind: "browser_view", seat: alpha, tab: 7, reply_to: 6 });
  // The old tab's news (its role moved) while the attach is out is not the attach's answer.
  a.heard({ kind: "browser_view", id: 2, profile: "Acme/default", tab: 1 });
  a.heard({ kind: "reply", reply_to: 6, body: { ok: false, why: "tab 7 is not open" } });
  assertEquals(a.held, [{ kind: "terminal_view", seat: alpha, id: 1 }]);
});

Deno.test("restore: each held attach re-sent with a reply_to of the client's, then its size", () => {
  const a = new Attachments();
  a.sent({ kind: "browser_view", seat: alpha, reply_to: 2 });
  a.sent({ kind: "browser_resize", width: 800, height: 600, scale: 2 });
  a.sent({ kind: "terminal_view", seat: alpha });
  a.sent({ kind: "terminal_resize", seat: alpha, id: 1, cols: 100, rows: 30 });
  a.dropped(); // neither was answered: both were asked for, so both are asked for again
  const { sent, said } = restore(
    a,
    (m) =>
      m.kind === "terminal_view"
        ? { ok: true, id: 4 }
        : { ok: true, profile: "Acme/default", tab: 1 },
  );
  assertEquals(sent, [
    { kind: "terminal_view", seat: alpha, reply_to: 41 },
    { kind: "browser_view", seat: alpha, reply_to: 42 },
    // Each size once its attach is answered: a terminal's names the id the answer gave.
    { kind: "terminal_resize", seat: alpha, id: 4, cols: 100, rows: 30 },
    { kind: "browser_resize", width: 800, height: 600, scale: 2 },
  ]);
  assertEquals(said, {
    reattached: [{ kind: "terminal_view", seat: alpha }, { kind: "browser_view", seat: alpha }],
    unattached: [],
  });
  // The client's own reply is its own; a caller's reply with the same number later is not.
  assertEquals(a.heard({ kind: "reply", reply_to: 41, body: { ok: true, id: 4 } }), false);
});

Deno.test("restore: one refused is said in forge's words and no longer held; none says at once", () => {
  const a = new Attachments();
  let said: Reattachment | null = null;
  a.restore(() => {}, () => 1, (r) => (said = r));
  assertEquals(said, { reattached: [], unattached: [] });
  a.sent({ kind: "browser_view_page", seat: alpha, target: "T9" });
  a.heard({ kind: "browser_view", id: 2, profile: "Acme/default", tab: 3 });
  a.dropped();
  const why = "browser_view_page: page T9 is gone; tabs open now: 1";
  const r = restore(a, () => ({ ok: false, why }));
  assertEquals(r.said?.unattached, [{
    attachment: { kind: "browser_view_page", seat: alpha, target: "T9" },
    why,
  }]);
  assertEquals(a.held, []);
});
