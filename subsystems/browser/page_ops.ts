import type { Cdp } from "./cdp.ts";
import { DriverError } from "./driver.ts";
import type { DriverOp, DriverOps } from "./driver_messages.ts";
import type { BrowserHost } from "./host.ts";
import type { Tab } from "./tab.ts";

/** A page operation that could not run, in words the agent reads. */
export class PageError extends Error {}

/** A page that did not answer forge at all in time (a script running without end). */
export class PageSilent extends PageError {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The session's tab, its host and forge's own connection, for one page operation. */
export interface Page {
  cdp: Cdp;
  tab: Tab;
  browser: BrowserHost;
}

/** How long forge's own evaluate waits on a page (one running a script without end never answers). */
const EVALUATE_MS = 5_000;

/**
 * Evaluates an expression in the page and returns its JSON value; a page exception, or a page
 * that does not answer within `ms`, is a PageError.
 */
export async function evaluate(
  p: { cdp: Cdp; tab: Tab },
  expression: string,
  ms = EVALUATE_MS,
): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new PageSilent(`tab ${p.tab.number}'s page did not answer within ${ms / 1000} s`)),
      ms,
    );
  });
  const asked = p.cdp.send("Runtime.evaluate", {
    expression,
    returnByValue: true,
    awaitPromise: true,
  }, p.tab.session);
  // The race's own copy: the caller hears `asked`'s failure; one after the bound has no listener.
  asked.catch(() => {});
  const r = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
  const ex = r.exceptionDetails as
    | { exception?: { description?: string }; text?: string }
    | undefined;
  if (ex) throw new PageError(`the page threw: ${ex.exception?.description ?? ex.text}`);
  return (r.result as { value?: unknown }).value;
}

/**
 * Waits until the document has loaded (a failure bound of 15 s, then carries on). A page that
 * does not answer at all is not waited on: what reads it next says so.
 */
export async function settle(p: { cdp: Cdp; tab: Tab }): Promise<void> {
  await sleep(60);
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    if (p.tab.dialog) return;
    const ms = Math.max(1, Math.min(EVALUATE_MS, until - performance.now()));
    let state: unknown;
    try {
      state = await evaluate(p, "document.readyState", ms);
    } catch (err) {
      if (err instanceof PageSilent) return;
      // A page between documents answers nothing: it is still loading, and the loop asks again.
      state = "loading";
    }
    if (state === "complete") return;
    await sleep(50);
  }
}

/** Runs one operation of the page driver (Playwright) on the tab; its refusal is a PageError. */
export async function drive<K extends DriverOp>(
  p: Page,
  op: K,
  args: DriverOps[K]["args"],
  boundMs?: number,
): Promise<DriverOps[K]["result"]> {
  try {
    return await p.browser.driver.ask(op, p.tab.targetId, args, boundMs);
  } catch (err) {
    if (err instanceof DriverError) throw new PageError(err.message);
    throw err;
  }
}

/** The page's snapshot as the answer shows it: its URL and title, then the aria tree. */
export function renderPage(s: DriverOps["snapshot"]["result"]): string {
  return `### Page\n- Page URL: ${s.url}\n- Page Title: ${s.title}\n` +
    "### Snapshot\n```yaml\n" + s.yaml + "\n```";
}

/** The page's accessibility snapshot with fresh refs, rendered. */
export async function snapshot(p: Page, args: DriverOps["snapshot"]["args"] = {}): Promise<string> {
  return renderPage(await drive(p, "snapshot", args));
}
