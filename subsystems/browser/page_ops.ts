import type { Cdp } from "./cdp.ts";
import { FIND_JS, SNAPSHOT_JS } from "./snapshot.ts";
import type { Tab } from "./tab.ts";

/** A page operation that could not run, in words the agent reads. */
export class PageError extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The session's tab and connection, for one page operation. */
export interface Page {
  cdp: Cdp;
  tab: Tab;
}

/** Evaluates an expression in the page and returns its JSON value; a page exception is a PageError. */
export async function evaluate(p: Page, expression: string): Promise<unknown> {
  const r = await p.cdp.send("Runtime.evaluate", {
    expression,
    returnByValue: true,
    awaitPromise: true,
  }, p.tab.session);
  const ex = r.exceptionDetails as
    | { exception?: { description?: string }; text?: string }
    | undefined;
  if (ex) throw new PageError(`the page threw: ${ex.exception?.description ?? ex.text}`);
  return (r.result as { value?: unknown }).value;
}

/** Waits until the document has loaded (a failure bound of 15 s, then carries on). */
export async function settle(p: Page): Promise<void> {
  await sleep(60);
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    if (p.tab.dialog) return;
    // A page between documents answers nothing: it is still loading, and the loop asks again.
    const state = await evaluate(p, "document.readyState").catch(() => "loading");
    if (state === "complete") return;
    await sleep(50);
  }
}

/** The page's text snapshot with fresh refs. */
export async function snapshot(p: Page): Promise<string> {
  return String(await evaluate(p, SNAPSHOT_JS));
}

/** The remote object of a target (ref or selector), or a PageError naming it. */
export async function find(p: Page, target: string): Promise<string> {
  const r = await p.cdp.send("Runtime.evaluate", {
    expression: `(${FIND_JS})(${JSON.stringify(target)})`,
  }, p.tab.session);
  const obj = r.result as { objectId?: string; subtype?: string };
  if (!obj.objectId || obj.subtype === "null") {
    throw new PageError(
      `no element matches target ${JSON.stringify(target)}; take a new browser__snapshot for refs`,
    );
  }
  return obj.objectId;
}

/** Calls a function on an element and returns its JSON value. */
export async function onElement(
  p: Page,
  objectId: string,
  fn: string,
  args: unknown[] = [],
): Promise<unknown> {
  const r = await p.cdp.send("Runtime.callFunctionOn", {
    objectId,
    functionDeclaration: fn,
    arguments: args.map((value) => ({ value })),
    returnByValue: true,
    awaitPromise: true,
  }, p.tab.session);
  const ex = r.exceptionDetails as { exception?: { description?: string } } | undefined;
  if (ex) throw new PageError(`the page threw: ${ex.exception?.description ?? "an exception"}`);
  return (r.result as { value?: unknown }).value;
}

/** Scrolls an element into view and returns its centre in viewport CSS pixels. */
export async function centre(p: Page, objectId: string): Promise<{ x: number; y: number }> {
  const c = await onElement(
    p,
    objectId,
    `function () { this.scrollIntoView({block: "center", inline: "center"});
      const r = this.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height }; }`,
  ) as { x: number; y: number; w: number; h: number };
  if (c.w === 0 && c.h === 0) throw new PageError("the element has no size on the page");
  return { x: c.x, y: c.y };
}

/** Replaces an editable element's content with `text` through real input (Input.insertText). */
export async function fill(p: Page, objectId: string, text: string): Promise<void> {
  await onElement(
    p,
    objectId,
    `function () { this.focus();
      if (typeof this.select === "function") this.select();
      else { const r = document.createRange(); r.selectNodeContents(this);
        const s = getSelection(); s.removeAllRanges(); s.addRange(r); } }`,
  );
  if (text.length === 0) {
    await p.cdp.send("Input.dispatchKeyEvent", {
      type: "rawKeyDown",
      key: "Delete",
      code: "Delete",
      windowsVirtualKeyCode: 46,
    }, p.tab.session);
    await p.cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Delete" }, p.tab.session);
    return;
  }
  await p.cdp.send("Input.insertText", { text }, p.tab.session);
}

/** Selects options of a <select> by value or label; returns the values now selected. */
export async function selectOptions(
  p: Page,
  objectId: string,
  values: string[],
): Promise<string[]> {
  const picked = await onElement(
    p,
    objectId,
    `function (wanted) {
      if (this.tagName !== "SELECT") return null;
      const chosen = [];
      // A single select always keeps one option selected, so match first, then set.
      for (const o of this.options) {
        const hit = wanted.includes(o.value) || wanted.includes(o.label) ||
          wanted.includes(o.textContent.trim());
        if (this.multiple) o.selected = hit;
        if (hit) chosen.push(o.value);
        if (hit && !this.multiple) { this.selectedIndex = o.index; break; }
      }
      if (chosen.length === 0) return chosen;
      this.dispatchEvent(new Event("input", { bubbles: true }));
      this.dispatchEvent(new Event("change", { bubbles: true }));
      return chosen; }`,
    [values],
  ) as string[] | null;
  if (picked === null) throw new PageError("the target is not a <select>");
  if (picked.length === 0) throw new PageError(`no option matches ${JSON.stringify(values)}`);
  return picked;
}
