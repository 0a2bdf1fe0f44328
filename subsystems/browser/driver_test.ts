// A Playwright failure never takes down the host or the server (driver.ts): an agent's
// browser_run_code_unsafe snippet that throws out of a timer ends the page driver's Worker, the
// call is answered in words, the viewer's frames go on over forge's own CDP connection, and the
// next call starts a fresh driver. The snippet runner itself answers only with its key on.
import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { browserTools } from "../../tests/browser_tools.ts";
import { corpusServer } from "../../fixtures/browser_corpus/server.ts";
import { type BrowserFrame, decodeBrowserFrame, type ServerMessage } from "../../protocol/mod.ts";
import type { Peer } from "../../server/subsystem.ts";

/** A viewer's connection: what it was sent, and a wait for the frame it needs. */
function viewer() {
  const messages: ServerMessage[] = [];
  const frames: BrowserFrame[] = [];
  const waiters: (() => void)[] = [];
  const peer = {
    id: 7,
    answering: false,
    showing: null,
    send: (m: ServerMessage) => messages.push(m),
    sendBinary: (b: Uint8Array) => {
      const d = decodeBrowserFrame(b);
      if (d.ok) frames.push(d.frame);
      for (const w of waiters.splice(0)) w();
    },
    buffered: () => 0,
    onClose: () => {},
  } as Peer;
  const frame = async (pred: (f: BrowserFrame) => boolean, ms = 30_000) => {
    const until = performance.now() + ms;
    for (;;) {
      const hit = frames.find(pred);
      if (hit) return hit;
      const left = until - performance.now();
      if (left <= 0) throw new Error(`no frame matched in ${ms} ms; ${frames.length} arrived`);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        waiters.push(() => {
          clearTimeout(timer);
          r();
        });
      });
    }
  };
  return { peer, messages, frames, frame };
}

Deno.test("a snippet that crashes Playwright's worker ends that worker only: frames go on, the next call works", async () => {
  await using corpus = corpusServer();
  await using tools = await browserTools("run_code_unsafe = true");
  const seat = { org: "Acme", project: "proj", label: "lead" };
  const nav = await tools.run("navigate", { url: corpus.page("frames") });
  assertEquals(nav.isError, undefined, nav.text);
  const title = await tools.run("run_code_unsafe", { code: "async (page) => await page.title()" });
  assertEquals(title.text, '"Frames"');

  const v = viewer();
  await tools.browser.verbs.browser_view({ kind: "browser_view", seat, reply_to: 1 }, v.peer);
  await v.frame((f) => f.key);

  // The snippet's timer throws in the worker after the call began: the worker ends.
  const crashed = await tools.run("run_code_unsafe", {
    code: "async (page) => { setTimeout(() => { throw new Error('boom'); }, 0); " +
      "await new Promise(() => {}); }",
  });
  assertEquals(crashed.isError, true);
  assertMatch(
    crashed.text,
    /^Playwright's worker failed: .*boom.*; the page driver restarts on the next call$/,
  );
  const stops = tools.log.records.filter((r) => r.event === "browser_driver_stopped");
  assertEquals(stops.length, 1);

  // The host and its viewer never noticed: a new layout paints a new key frame at its size.
  const seen = v.frames.length;
  await tools.browser.verbs.browser_resize(
    { kind: "browser_resize", width: 640, height: 400, scale: 1 },
    v.peer,
  );
  const after = await v.frame((f) => v.frames.indexOf(f) >= seen && f.pageWidth === 640);
  assert(after.bytes.length > 0);

  // The next call starts a fresh driver and acts as before.
  const snap = await tools.run("snapshot", {});
  assertEquals(snap.isError, undefined, snap.text);
  assertMatch(snap.text, /form "Sign in" \[ref=f\d+e\d+\]/);
  const starts = tools.log.records.filter((r) => r.event === "browser_driver_started");
  assertEquals(starts.map((r) => (r as { start?: number }).start), [1, 2]);
});

Deno.test("browser_run_code_unsafe reads its code from a file, and refuses what is not a function", async () => {
  await using tools = await browserTools("run_code_unsafe = true");
  await Deno.writeTextFile(`${tools.dir}/snippet.js`, "async (page) => page.url()");
  const fromFile = await tools.run("run_code_unsafe", {
    code: "async () => 'ignored'",
    filename: "snippet.js",
  });
  assertEquals(fromFile.text, '"about:blank"');
  const notFn = await tools.run("run_code_unsafe", { code: "42" });
  assertEquals(notFn.isError, true);
  assertEquals(notFn.text, "code is not a function: write it `async (page) => { ... }`");
  const neither = await tools.run("run_code_unsafe", {});
  assertEquals(neither.text, "browser_run_code_unsafe needs code or filename");
});
