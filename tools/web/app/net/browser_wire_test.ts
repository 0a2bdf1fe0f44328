import { assert, assertEquals } from "../../../../tests/assert.ts";
import type {
  BrowserFrame,
  ClientMessage,
  ErrorFrame,
  ServerMessage,
  Wire,
} from "../../../../protocol/mod.ts";
import { encodeBrowserFrame } from "../../../../protocol/mod.ts";
import { BrowserWire } from "./browser_wire.ts";
import type { ForgeClient } from "./client.ts";
import { Store } from "./store.ts";

// The browser panel's wire logic against a recording client. spec: browser_tabs ("the ask is the
// subscription"), browser_view (a switch lets the old tab go), browser_input (seq order; only the
// controller's lands), Binary messages > 1 (the frame names its profile's wire id and tab).

const SEAT = { org: "Acme", project: "web", label: "lead" };

function world() {
  const store = new Store();
  const sent: ClientMessage[] = [];
  const asks = new Map<number, (body: Wire) => void>();
  let id = 0;
  const fake = {
    store,
    state: store.state,
    send: (m: ClientMessage) => (sent.push(m), true),
    command: (name: string, fields: Wire) =>
      sent.push({ kind: "command", command: { [name]: fields } } as ClientMessage),
    note: (m: ErrorFrame) => store.state.errors.push({ ...m, at: 0 }),
    ask: (build: (replyTo: number) => ClientMessage) => {
      const m = build(++id);
      sent.push(m);
      return new Promise<Wire>((r) => asks.set(id, r));
    },
  };
  const wire = new BrowserWire(fake as unknown as ForgeClient);
  const frames: BrowserFrame[] = [];
  return {
    wire,
    sent,
    state: store.state,
    frames,
    sink: { frame: (f: BrowserFrame) => frames.push(f) },
    /** Answers the newest ask with `body` and lets its continuation run. */
    async answer(body: Wire) {
      asks.get(id)!(body);
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

const tabs = (rows: { number: number; url: string }[], up = true) => ({
  profile: "Acme/default",
  id: 3,
  up,
  connected: true,
  closing_at_ms: null,
  audio_off: null,
  rows: rows.map((r) => ({
    ...r,
    title: r.url,
    owner: null,
    opener: null,
    state: "idle",
    dialog: null,
  })),
});

function frame(tab: number, seq: number): Uint8Array {
  return encodeBrowserFrame({
    profile: 3,
    tab,
    seq,
    width: 10,
    height: 10,
    format: 1,
    key: true,
    pageWidth: 10,
    pageHeight: 10,
    bytes: new Uint8Array([1, 2, 3]),
  });
}

Deno.test("browser wire: a URL opened attaches its tab once it leaves the blank page", async () => {
  const w = world();
  w.wire.open(SEAT, w.sink);
  assertEquals(w.sent[0].kind, "browser_tabs");
  await w.answer({ ok: true, tabs: tabs([], false) });
  assertEquals(w.sent.length, 1, "a host that is down is not started by looking");
  w.wire.openUrl("http://127.0.0.1:9/form");
  assertEquals(w.sent[1], {
    kind: "command",
    command: { open_url: { url: "http://127.0.0.1:9/form" } },
  });
  const push = (rows: { number: number; url: string }[]) =>
    w.wire.message({ kind: "browser_tabs", ...tabs(rows) } as ServerMessage);
  push([{ number: 1, url: "about:blank" }, { number: 2, url: "about:blank" }]);
  assertEquals(w.sent.length, 2, "a blank tab (the boot tab, or the new one not yet moved) waits");
  push([{ number: 1, url: "about:blank" }, { number: 2, url: "http://127.0.0.1:9/form" }]);
  assertEquals(w.sent[2], { kind: "browser_view", seat: SEAT, tab: 2, reply_to: 2 });
  // Another profile's push (an older seat's strip) is not this panel's.
  w.wire.message({ kind: "browser_tabs", ...tabs([]), profile: "Other/default" } as ServerMessage);
  assertEquals(w.state.browser!.rows.length, 2);
});

Deno.test("browser wire: frames of the viewed tab only; input only while driving, seq rising", async () => {
  const w = world();
  w.wire.open(SEAT, w.sink);
  await w.answer({ ok: true, tabs: tabs([{ number: 1, url: "a" }, { number: 2, url: "b" }]) });
  assertEquals(w.sent[1], { kind: "browser_view", seat: SEAT, tab: undefined, reply_to: 2 });
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.frame(frame(1, 1));
  assertEquals(w.frames.length, 0, "no frame is drawn before the view names its tab");
  const view = { kind: "browser_view", id: 3, profile: "Acme/default", tab: 1, viewers: 1 };
  w.wire.message({ ...view, controller: null, viewer: 7 } as ServerMessage);
  w.wire.frame(frame(1, 2));
  w.wire.frame(frame(2, 3));
  assertEquals(w.frames.map((f) => f.seq), [2]);

  w.wire.input({ type: "press", x: 1, y: 1 });
  w.wire.resize(100, 50, 1);
  w.wire.nav(true);
  assertEquals(w.sent.length, 2, "a watcher sends no input, size or move");
  w.wire.message({ ...view, controller: 7, viewer: 7 } as ServerMessage);
  w.wire.input({ type: "press", x: 1, y: 1 });
  w.wire.input({ type: "key", key: "a" });
  w.wire.resize(100, 50, 1);
  w.wire.resize(100, 50, 1);
  const seqs = w.sent.flatMap((m) => m.kind === "browser_input" ? [m.seq] : []);
  assertEquals(seqs, [1, 2]);
  assertEquals(w.sent.filter((m) => m.kind === "browser_resize").length, 1, "one size, once");

  // A switch: the old tab's last words are not the new view's.
  w.wire.view(2);
  w.wire.message({ ...view, controller: null, viewer: 7, viewers: 0 } as ServerMessage);
  assertEquals(w.state.browser!.view, null);
  w.wire.close();
  assertEquals(w.sent.at(-1), { kind: "browser_detach" });
  assertEquals(w.state.browser, null);
});

Deno.test("browser wire: a download is a blob link, a failed or lost one is said in words", async () => {
  const w = world();
  w.wire.open(SEAT, w.sink);
  const dl = { kind: "browser_download", tab: 1, name: "data.txt", error: null };
  w.wire.message({ ...dl, data: btoa("bytes") } as ServerMessage);
  w.wire.message({ ...dl, data: null, error: "the file is past 32 MiB" } as ServerMessage);
  w.wire.message({ ...dl, name: "", data: null, dropped: true, lost: 3 } as ServerMessage);
  const [ok, big, lost] = w.state.browser!.downloads;
  assertEquals(await (await fetch(ok.href!)).text(), "bytes");
  assertEquals([big.href, big.error], [null, "the file is past 32 MiB"]);
  assert(lost.error!.startsWith("3 downloads were lost"), lost.error!);
  w.wire.close();
});

/** A panel viewing tab 1 as viewer 7, with `controller` holding the role, whose socket dropped. */
async function droppedWhileViewing(controller: number | null) {
  const w = world();
  w.wire.open(SEAT, w.sink);
  await w.answer({ ok: true, tabs: tabs([{ number: 1, url: "a" }]) });
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  const view = { kind: "browser_view", id: 3, profile: "Acme/default", tab: 1, viewers: 1 };
  w.wire.message({ ...view, controller, viewer: 7 } as ServerMessage);
  w.wire.lost();
  w.wire.lost(); // the link says "down", then "connecting"
  w.sent.length = 0;
  // The socket is back: the panel asks the strip again; the host died with forge.
  w.wire.open(SEAT, w.sink);
  await w.answer({ ok: true, tabs: tabs([], false) });
  return { w, view };
}

Deno.test("browser wire: after a drop the tab is attached again and its role taken back", async () => {
  const { w, view } = await droppedWhileViewing(7);
  // The viewer died with the socket: the attach starts the host, as the person's Start does.
  assertEquals(w.sent.at(-1), { kind: "browser_view", seat: SEAT, tab: undefined, reply_to: 4 });
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.message({ ...view, controller: null, viewer: 2 } as ServerMessage);
  assertEquals(w.sent.at(-1), { kind: "browser_control", take: true });
  w.wire.message({ ...view, controller: 2, viewer: 2 } as ServerMessage);
  assertEquals(w.wire.mine, true);
  assertEquals(w.sent.filter((m) => m.kind === "browser_control").length, 1, "taken once");
});

Deno.test("browser wire: a role another took meanwhile is not taken from them; it is said", async () => {
  const { w, view } = await droppedWhileViewing(7);
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.message({ ...view, controller: 5, viewer: 2 } as ServerMessage);
  assertEquals(w.sent.filter((m) => m.kind === "browser_control"), []);
  assertEquals(
    w.state.errors.map((e) => e.why),
    ["You had this tab's control before the connection dropped; viewer 5 took it meanwhile"],
  );
  // A watcher before the drop takes nothing either; a lowered panel attaches nothing again.
  const watcher = await droppedWhileViewing(null);
  watcher.w.wire.message({ ...view, controller: null, viewer: 2 } as ServerMessage);
  assertEquals(watcher.w.sent.filter((m) => m.kind === "browser_control"), []);
  const lowered = world();
  lowered.wire.open(SEAT, lowered.sink);
  await lowered.answer({ ok: true, tabs: tabs([], false) });
  lowered.wire.close();
  lowered.wire.open(SEAT, lowered.sink);
  await lowered.answer({ ok: true, tabs: tabs([], false) });
  assertEquals(lowered.sent.map((m) => m.kind), ["browser_tabs", "browser_detach", "browser_tabs"]);
});

Deno.test("browser wire: a take given back and not yet answered is owed across a second drop", async () => {
  const { w, view } = await droppedWhileViewing(7);
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.message({ ...view, controller: null, viewer: 2 } as ServerMessage);
  w.wire.lost();
  w.sent.length = 0;
  w.wire.open(SEAT, w.sink);
  await w.answer({ ok: true, tabs: tabs([{ number: 1, url: "about:blank" }]) });
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.message({ ...view, controller: null, viewer: 3 } as ServerMessage);
  assertEquals(w.sent.at(-1), { kind: "browser_control", take: true });
});

Deno.test("browser wire: an attach a second drop took before it landed is asked for again", async () => {
  const { w, view } = await droppedWhileViewing(7);
  w.wire.lost(); // the re-attach went out; the socket went before it landed
  w.sent.length = 0;
  w.wire.open(SEAT, w.sink);
  await w.answer({ ok: true, tabs: tabs([], false) });
  assertEquals(w.sent.at(-1), { kind: "browser_view", seat: SEAT, tab: undefined, reply_to: 6 });
  await w.answer({ ok: true, profile: "Acme/default", tab: 1 });
  w.wire.message({ ...view, controller: null, viewer: 3 } as ServerMessage);
  assertEquals(w.sent.at(-1), { kind: "browser_control", take: true });
});
