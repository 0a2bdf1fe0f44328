import { assert, assertEquals } from "../../tests/assert.ts";
import type { ServerMessage } from "../../protocol/mod.ts";
import { TabViewers, type ViewerSink } from "./viewers.ts";

function sink(conn: number) {
  const got: { json: ServerMessage[]; frames: Uint8Array[]; behind: number } = {
    json: [],
    frames: [],
    behind: 0,
  };
  const s: ViewerSink = {
    conn,
    send: (m) => got.json.push(m),
    sendBinary: (b) => got.frames.push(b),
    buffered: () => got.behind,
  };
  return { s, got };
}

const describe = (set: () => TabViewers) => (viewer: number): ServerMessage => ({
  kind: "browser_view",
  id: 1,
  profile: "o/default",
  tab: 1,
  controller: set().controller,
  viewers: set().size,
  viewer,
});

// spec: browser_resize ("while a controller holds the tab only its size applies ... with nobody
// holding the role the layout belongs to the tab's longest-watching viewer").
Deno.test("the layout belongs to the controller, else the longest-watching viewer", () => {
  const v: TabViewers = new TabViewers(describe(() => v));
  const a = v.attach(sink(1).s).viewer;
  const b = v.attach(sink(2).s).viewer;
  const size = (w: number) => ({ width: w, height: 100, scale: 1 });
  assertEquals(v.resize(b, size(300)), null, "a later watcher does not move the page");
  assertEquals(v.resize(a, size(400)), size(400), "the longest-watching viewer lays it out");
  v.control(b, true);
  assertEquals(v.ownerSize(), size(300), "a take hands the layout to the controller's size");
  assertEquals(v.resize(a, size(500)), null, "a watcher's size never applies under a controller");
  assertEquals(v.control(a, false).released, false, "a release that held nothing is not one");
  assertEquals(v.control(b, false).released, true);
  assertEquals(v.layoutOwner(), a);
});

// spec: browser_control ("exactly one holds it at a time ... every viewer of the tab is sent the
// new state"), browser_view (a re-attach keeps the viewer).
Deno.test("a take moves the role, resets the input seq and tells every viewer", () => {
  const v: TabViewers = new TabViewers(describe(() => v));
  const one = sink(1);
  const two = sink(2);
  const a = v.attach(one.s).viewer;
  const b = v.attach(two.s).viewer;
  assertEquals(v.attach(one.s), { viewer: a, again: true }, "a re-attach keeps its viewer");
  v.control(a, true);
  v.lastSeq = 7;
  v.control(b, true);
  assertEquals([v.controller, v.lastSeq], [b, -1]);
  const last = (m: ServerMessage[]) => m.at(-1) as { controller: number; viewer: number };
  assertEquals([last(one.got.json).controller, last(one.got.json).viewer], [b, a]);
  assertEquals(last(two.got.json).controller, b);
  assertEquals(v.detach(b), true, "detaching the holder releases the role");
  assertEquals(v.controller, null);
});

// spec: kind 1 ("A viewer that falls behind is served the newest frame rather than a queue").
Deno.test("a behind viewer is served the newest frame, never a queue", async () => {
  const v: TabViewers = new TabViewers(describe(() => v));
  const fast = sink(1);
  const slow = sink(2);
  v.attach(fast.s);
  v.attach(slow.s);
  slow.got.behind = 10 * 1024 * 1024;
  for (let i = 1; i <= 5; i++) v.frame(new Uint8Array([i]));
  assertEquals(fast.got.frames.map((f) => f[0]), [1, 2, 3, 4, 5]);
  assertEquals(slow.got.frames.length, 0);
  slow.got.behind = 0;
  const until = performance.now() + 5000;
  while (slow.got.frames.length === 0 && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assertEquals(slow.got.frames.map((f) => f[0]), [5], "only the newest crossed");
  v.clear();
  assert(v.size === 0);
});
