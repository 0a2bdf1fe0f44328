import { assert, assertEquals } from "../../tests/assert.ts";
import type { ServerMessage } from "../../protocol/mod.ts";
import { memoryLogger } from "../../server/log.ts";
import type { Host } from "../../server/subsystem.ts";
import { Files } from "./files.ts";
import type { BrowserHost } from "./host.ts";
import type { Surfaces } from "./surface.ts";
import type { Tab } from "./tab.ts";
import { TabViewers } from "./viewers.ts";

// spec: browser_download ("dropped is true when the offer was lost before this viewer read it
// ... that notice carries no tab, and lost says how many were dropped. Only a controller is sent
// one ... and the server's own copy is removed once it has crossed").
Deno.test("downloads wait for a controller; past the backlog the oldest are lost and said so", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/downloads`);
  const viewers: TabViewers = new TabViewers((viewer) => ({
    kind: "browser_view",
    id: 1,
    profile: "o/default",
    tab: 1,
    controller: viewers.controller,
    viewers: viewers.size,
    viewer,
  }));
  const tab = { number: 1, targetId: "T1", viewers } as unknown as Tab;
  const browser = {
    key: "o/default",
    dir,
    tabs: new Map([[1, tab]]),
    byTarget: (id: string) => (id === "T1" ? tab : undefined),
  } as unknown as BrowserHost;
  const files = new Files({ log: memoryLogger() } as unknown as Host, {} as Surfaces);
  for (let i = 0; i < 9; i++) {
    await Deno.writeTextFile(`${dir}/downloads/g${i}`, `file ${i}`);
    files.downloadEvent(browser, "Browser.downloadWillBegin", {
      guid: `g${i}`,
      frameId: "T1",
      suggestedFilename: `f${i}.txt`,
    });
    files.downloadEvent(browser, "Browser.downloadProgress", { guid: `g${i}`, state: "completed" });
  }
  const got: ServerMessage[] = [];
  const watcher: ServerMessage[] = [];
  const sink = (conn: number, into: ServerMessage[]) => ({
    conn,
    send: (m: ServerMessage) => into.push(m),
    sendBinary: () => {},
    buffered: () => 0,
  });
  viewers.attach(sink(2, watcher));
  const me = viewers.attach(sink(1, got)).viewer;
  await files.deliver(browser);
  assertEquals(got.filter((m) => m.kind === "browser_download").length, 0, "no controller yet");
  viewers.control(me, true);
  await files.deliver(browser);
  const downloads = got.filter((m) => m.kind === "browser_download") as Extract<
    ServerMessage,
    { kind: "browser_download" }
  >[];
  assertEquals(downloads[0].dropped, true);
  assertEquals([downloads[0].lost, downloads[0].tab], [1, undefined]);
  assertEquals(
    downloads.slice(1).map((d) => d.name),
    [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `f${i}.txt`),
  );
  assertEquals(atob(downloads[1].data!), "file 1");
  assert(!watcher.some((m) => m.kind === "browser_download"), "a watcher is sent none");
  assertEquals([...Deno.readDirSync(`${dir}/downloads`)].length, 0, "every copy removed");
  await Deno.remove(dir, { recursive: true });
});
