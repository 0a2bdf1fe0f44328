import { assertEquals } from "../../tests/assert.ts";
import type { ServerMessage } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host, Peer } from "../../server/subsystem.ts";
import type { BrowserHost } from "./host.ts";
import type { Profiles } from "./profiles.ts";
import { Surfaces } from "./surface.ts";
import type { Tab } from "./tab.ts";
import { TabViewers } from "./viewers.ts";

const seat = { org: "acme", project: "web", label: "lead" };

/** One open tab of one profile, standing in for a browser: what an attach and a detach touch. */
function oneTab(): { profiles: Profiles; tab: Tab } {
  const viewers: TabViewers = new TabViewers((viewer) => ({
    kind: "browser_view",
    id: 1,
    profile: "acme/default",
    tab: 1,
    controller: viewers.controller,
    viewers: viewers.size,
    viewer,
  }));
  const tab = {
    number: 1,
    viewers,
    navState: () => Promise.resolve({ kind: "pong" }),
    keyFrameFor: () => Promise.resolve(),
    stopCastIfUnwatched: () => Promise.resolve(),
    resize: () => Promise.resolve(),
  } as unknown as Tab;
  const browser = {
    key: "acme/default",
    tabs: new Map([[1, tab]]),
    ensureUp: () => Promise.resolve(),
    touch: () => {},
  } as unknown as BrowserHost;
  return { profiles: { forSeat: () => browser } as unknown as Profiles, tab };
}

// spec: browser_view, browser_detach: a connection may attach, let go and attach again.
Deno.test("attaching to a tab again and again leaves one close handler on the connection", async () => {
  const { profiles, tab } = oneTab();
  const surfaces = new Surfaces({ log: memoryLogger() } as unknown as Host, profiles);
  const closers: (() => void)[] = [];
  const peer: Peer = {
    id: 1,
    answering: false,
    showing: null,
    send: (_m: ServerMessage) => {},
    sendBinary: () => {},
    buffered: () => 0,
    onClose: (fn) => closers.push(fn),
  };
  for (let i = 0; i < 50; i++) {
    await surfaces.view(peer, "browser_view", seat, () => tab, 1, false);
    surfaces.detach(peer);
  }
  await surfaces.view(peer, "browser_view", seat, () => tab, 1, false);
  assertEquals(closers.length, 1);
  // The one handler still lets the tab go when the connection closes.
  assertEquals(tab.viewers.size, 1);
  closers[0]();
  assertEquals([tab.viewers.size, surfaces.attached.size], [0, 0]);
});
