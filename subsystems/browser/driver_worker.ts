/// <reference lib="deno.worker" />
/**
 * The page driver's Worker (driver.ts): one Playwright connection over CDP to one host's Chromium,
 * attached with `noDefaults` so Playwright leaves the browser as forge set it (downloads, media,
 * fonts, focus), and every ask answered with a value or a sentence in forge's words - within the
 * ask's bound, whatever its page does. When the connection ends the worker says so and the server
 * ends it; a fresh one attaches on the next ask.
 */
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { DriverAsk, DriverOp, DriverReply } from "./driver_messages.ts";
import { Refused, within } from "./driver_calls.ts";
import { DRIVER_OPS } from "./driver_ops.ts";
import { explain, tooSlow } from "./driver_words.ts";

/** How long the worker waits on a page for what it needs before the operation itself. */
const LOOKUP_MS = 5_000;

let connecting: Promise<Browser> | null = null;
const send = (r: DriverReply) => self.postMessage(r);

/**
 * Node's `existsSync` answers false for a path it may not read; under forge's narrow permissions
 * Deno's throws instead (a /proc path wants --allow-all), and Playwright probes /proc (is it
 * WSL?) as it loads. This worker's `node:fs` keeps Node's contract, then Playwright is loaded.
 */
function nodeExistsSync(): void {
  const exists = fs.existsSync;
  fs.existsSync = (path) => {
    try {
      return exists(path);
    } catch {
      return false; // a probe: a path Deno will not stat does not exist for Playwright
    }
  };
}

async function connect(wsUrl: string, artifactsDir: string): Promise<Browser> {
  let browser: Browser;
  try {
    nodeExistsSync();
    // A directory of the host's own, not a fresh temporary one: a worker that is ended never
    // cleans up after itself.
    await Deno.mkdir(artifactsDir, { recursive: true });
    const { chromium } = await import("playwright-core");
    browser = await chromium.connectOverCDP(wsUrl, {
      noDefaults: true,
      isLocal: true,
      artifactsDir,
      timeout: 30_000,
    });
  } catch (err) {
    const why = `Playwright could not attach to the browser: ${(err as Error).message ?? err}`;
    send({ kind: "gone", why: why.split("\n")[0] });
    throw err;
  }
  send({ kind: "attached" });
  browser.on("disconnected", () => {
    send({ kind: "gone", why: "Playwright's connection to the browser closed" });
  });
  // A page dialog stays open for forge to show the person and the agent to answer
  // (browser_handle_dialog): with no listener Playwright would dismiss it at once.
  for (const context of browser.contexts()) context.on("dialog", () => {});
  return browser;
}

/**
 * Each page's CDP target id, read once through a short CDP session of Playwright's own. A read
 * that failed or ran out of time is not kept: the next lookup asks again.
 */
const targetIds = new WeakMap<Page, Promise<string | null>>();

function targetIdOf(page: Page): Promise<string | null> {
  let id = targetIds.get(page);
  if (!id) {
    const read = (async () => {
      const session = await page.context().newCDPSession(page);
      try {
        const info = await session.send("Target.getTargetInfo");
        return info.targetInfo.targetId;
      } finally {
        await session.detach().catch(() => {/* a session already gone needs no detach */});
      }
    })();
    // A page CDP will not describe in time has no target id: forgotten, so it is looked up again.
    id = within(read, LOOKUP_MS, "no target id").catch(() => {
      targetIds.delete(page);
      return null;
    });
    targetIds.set(page, id);
  }
  return id;
}

/**
 * The Playwright page of forge's tab. A tab forge has just opened may not have reached Playwright
 * yet (its auto-attach runs beside forge's): the answer waits for it a while.
 */
async function pageOf(browser: Browser, targetId: string): Promise<Page> {
  const until = Date.now() + 10_000;
  for (;;) {
    // Asked side by side: one page that does not answer holds up no other's lookup.
    const pages = browser.contexts().flatMap((c) => c.pages());
    const ids = await Promise.all(pages.map(targetIdOf));
    const found = pages[ids.indexOf(targetId)];
    if (found) return found;
    const left = until - Date.now();
    if (left <= 0) {
      throw new Refused("Playwright does not see this tab; it may have closed");
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(left, 1000));
      const contexts = browser.contexts();
      function done() {
        clearTimeout(timer);
        for (const c of contexts) c.off("page", done);
        resolve();
      }
      for (const c of contexts) c.on("page", done);
    });
  }
}

/** The operations that only read the page: they run on a hidden page as well as a shown one. */
const READS = new Set<DriverOp>(["snapshot", "formState", "evaluate"]);

/**
 * A page behind another tab of its window (a popup opened over it) is hidden, and a hidden page
 * runs no animation frames, which Playwright's actionability checks wait on: the tab an action
 * drives is brought to the front of its window first. forge opens each tab in a window of its
 * own, so this moves only a page's own popups.
 */
async function toFront(page: Page): Promise<void> {
  // A page that does not answer is left where it is: the action's own bound speaks for it.
  const hidden = await within(
    page.evaluate("document.visibilityState === 'hidden'"),
    LOOKUP_MS,
    "",
  ).catch(() => false /* a page that does not answer is not raised */);
  // A page that closed meanwhile has nothing to raise.
  if (hidden) await within(page.bringToFront(), LOOKUP_MS, "").catch(() => {});
}

async function run(m: Extract<DriverAsk, { kind: "ask" }>): Promise<unknown> {
  if (!connecting) throw new Refused("the page driver was asked before it was told the browser");
  const browser = await connecting;
  const page = await pageOf(browser, m.page);
  if (!READS.has(m.op)) await toFront(page);
  const op = DRIVER_OPS[m.op as DriverOp] as (p: Page, a: unknown) => Promise<unknown>;
  return await op(page, m.args);
}

async function answer(m: Extract<DriverAsk, { kind: "ask" }>): Promise<void> {
  try {
    const value = await within(run(m), m.boundMs, tooSlow(m.op, m.boundMs));
    send({ kind: "answer", id: m.id, ok: true, value });
  } catch (err) {
    send({ kind: "answer", id: m.id, ok: false, why: explain(err, m.op as DriverOp) });
  }
}

self.onmessage = (e: MessageEvent<DriverAsk>) => {
  const m = e.data;
  if (m.kind === "ping") return send({ kind: "pong" });
  if (m.kind === "init") {
    connecting = connect(m.wsUrl, m.artifactsDir);
    // Each op awaits `connecting` and answers its failure in words (explain); this copy only
    // keeps an unanswered failure from ending the worker.
    connecting.catch(() => {});
    return;
  }
  void answer(m);
};
