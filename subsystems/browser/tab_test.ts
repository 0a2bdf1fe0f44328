// A cast or still Chromium refuses (it does while a page's navigation commits: a tab opened and
// watched at once) is asked again while someone watches, so the viewer is not left with no
// picture at all; a tab nobody watches asks nothing more.
import { strictEqual as equal } from "node:assert/strict";
import { decodeBrowserFrame } from "../../protocol/mod.ts";
import type { Cdp, CdpBody } from "./cdp.ts";
import { Tab } from "./tab.ts";

/** A DevTools connection refusing the first `refuse` starts and stills, then answering. */
function flakyCdp(refuse: number) {
  const asked: string[] = [];
  let starts = 0;
  let shots = 0;
  const cdp: Cdp = {
    send(method: string): Promise<CdpBody> {
      asked.push(method);
      if (method === "Page.startScreencast" && ++starts <= refuse) {
        return Promise.reject(new Error("Not attached to an active page"));
      }
      if (method === "Page.captureScreenshot") {
        return ++shots <= refuse
          ? Promise.reject(new Error("Unable to capture screenshot"))
          : Promise.resolve({ data: btoa("RIFF0000WEBP") });
      }
      return Promise.resolve({});
    },
    onEvent: () => {},
    onClose: () => {},
    close: () => Promise.resolve(),
  };
  return { cdp, asked };
}

function tabOn(cdp: Cdp): Tab {
  return new Tab(
    { cdp, profileId: 1, profileKey: "p", changed: () => {}, fileChooser: () => {} },
    1,
    "target",
    "session",
  );
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("tab: a refused cast and still are asked again until a watcher gets a picture", async () => {
  const { cdp, asked } = flakyCdp(2);
  const tab = tabOn(cdp);
  const frames: Uint8Array[] = [];
  const { viewer } = tab.viewers.attach({
    conn: 1,
    send: () => {},
    sendBinary: (b) => frames.push(b),
    buffered: () => 0,
  });
  await tab.keyFrameFor(viewer);
  equal(frames.length, 0, "both refused the first time");
  for (let i = 0; i < 40 && frames.length === 0; i++) await tick(50);
  equal(asked.filter((m) => m === "Page.startScreencast").length, 3);
  equal(frames.length, 1);
  const decoded = decodeBrowserFrame(frames[0]);
  equal(decoded.ok && decoded.frame.key, true, "the still is a key frame");
  await tick(400);
  equal(asked.filter((m) => m === "Page.captureScreenshot").length, 3, "nothing after success");
});

Deno.test("tab: a refused cast is not asked again once nobody watches", async () => {
  const { cdp, asked } = flakyCdp(100);
  const tab = tabOn(cdp);
  const { viewer } = tab.viewers.attach({
    conn: 1,
    send: () => {},
    sendBinary: () => {},
    buffered: () => 0,
  });
  await tab.keyFrameFor(viewer);
  tab.viewers.detach(viewer);
  await tick(600);
  equal(asked.filter((m) => m === "Page.startScreencast").length, 1);
});
