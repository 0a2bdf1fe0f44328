/**
 * The page driver's operations (driver.ts), run in its Worker on Playwright objects. A target is
 * a ref from the latest aria snapshot (`e<n>` or `f<frame>e<n>`: Playwright's `aria-ref`, which
 * reaches into open shadow roots and frames alike) or a selector naming one element. A ref that
 * names nothing now is refused in words that send the agent back to browser_snapshot.
 */
import type { Frame, Locator, Page } from "playwright-core";
import type { DriverOps } from "./driver_messages.ts";
import { pageFunction, Refused, within } from "./driver_calls.ts";
import { maskPasswords } from "./driver_passwords.ts";
import { FORM_STATE_JS } from "./form_state.ts";
import { subtreeOf } from "./snapshot_lines.ts";

/**
 * A snapshot ref: `e<n>`, or `f<frame>e<n>`, where `<frame>` is Playwright's number for the
 * document the element is in - a child frame's, or the main frame's own once it has navigated
 * (Playwright numbers a main frame's documents after the first): a prefix says which document,
 * not that the element sits in a child frame.
 */
export const REF = /^(f\d+)?e\d+$/;
/** How long an action waits for its element to be actionable (as @playwright/mcp's default). */
export const ACTION_MS = 5_000;
const act = { timeout: ACTION_MS };
const DRAG_STEPS = 8;

/** The sentence a ref that names nothing now is refused with. */
export function staleRef(ref: string): string {
  return `ref ${ref} names nothing on the page now: the page changed since the snapshot that ` +
    "listed it, or no snapshot of this page listed it. Take a new browser_snapshot and use the " +
    "refs it gives.";
}

/** The one element a target names, or a Refused saying why there is none. */
export async function locate(page: Page, target: string): Promise<Locator> {
  if (REF.test(target)) {
    const ref = page.getByRef(target);
    // A ref resolves against the newest snapshot of its frame; an element since removed, or a
    // frame since gone, resolves to nothing (or throws): both are stale.
    const n = await ref.count().catch(() => 0);
    if (n !== 1) throw new Refused(staleRef(target));
    return ref;
  }
  const loc = page.locator(target);
  let n: number;
  try {
    n = await loc.count();
  } catch {
    throw new Refused(
      `target ${JSON.stringify(target)} is neither a ref from browser_snapshot (e5, f3e5) ` +
        "nor a selector forge can read",
    );
  }
  if (n === 0) {
    throw new Refused(
      `no element matches ${JSON.stringify(target)}; take a browser_snapshot and pass a ref`,
    );
  }
  if (n > 1) {
    throw new Refused(
      `${JSON.stringify(target)} matches ${n} elements; pass a ref from browser_snapshot or a ` +
        "selector that names one",
    );
  }
  return loc;
}

/** JSON of a value the page returned, `undefined` spelled out. */
const json = (v: unknown) => JSON.stringify(v ?? null, null, 1) ?? "undefined";

type Ops = {
  [K in keyof DriverOps]: (page: Page, a: DriverOps[K]["args"]) => Promise<DriverOps[K]["result"]>;
};

export const DRIVER_OPS: Ops = {
  snapshot: async (page, a) => {
    // Asked beside the snapshot, not after it: the title waits on nothing the snapshot does, and
    // each round trip to the page is one the agent waits through.
    // A title the page will not give in time is left out: the snapshot answers without it.
    const title = within(page.title(), TITLE_MS, "").catch(() => "");
    const yaml = await maskPasswords(page, await snapshotYaml(page, a));
    return { url: page.url(), title: await title, yaml };
  },
  click: async (page, a) => {
    const el = await locate(page, a.target);
    const opts = {
      ...act,
      button: a.button,
      force: a.force,
      modifiers: a.modifiers as ("Alt" | "Control" | "ControlOrMeta" | "Meta" | "Shift")[],
    };
    if (a.doubleClick) await el.dblclick(opts);
    else await el.click(opts);
    return null;
  },
  hover: async (page, a) => {
    await (await locate(page, a.target)).hover(act);
    return null;
  },
  type: async (page, a) => {
    const el = await locate(page, a.target);
    if (a.slowly) {
      // Key by key at the caret the field holds (after a fill, its end). Playwright's
      // pressSequentially moves an <input>'s caret to its start whenever the field's document
      // lacks focus at that instant, and with its focus emulation off (noDefaults) that is the
      // browser's real focus, which another frame can hold for a moment - a cross-origin frame's
      // focus crosses processes. focus() keeps the field's own selection.
      await el.focus(act);
      await page.keyboard.type(a.text);
    } else await el.fill(a.text, act);
    if (a.submit) await el.press("Enter", act);
    return null;
  },
  fillForm: async (page, a) => {
    // Every target is found before anything is typed: a stale ref fills nothing.
    const els = [];
    for (const f of a.fields) els.push(await locate(page, f.target));
    for (const [i, f] of a.fields.entries()) {
      if (f.type === "checkbox" || f.type === "radio") {
        await els[i].setChecked(f.value === "true", act);
      } else if (f.type === "combobox") await els[i].selectOption({ label: f.value }, act);
      else await els[i].fill(f.value, act);
    }
    return null;
  },
  select: async (page, a) => await (await locate(page, a.target)).selectOption(a.values, act),
  drag: async (page, a) => {
    const start = await locate(page, a.startTarget);
    const end = await locate(page, a.endTarget);
    // Mouse moves between the ends: a page that tracks the pointer sees a path, not a jump.
    await start.dragTo(end, { ...act, steps: DRAG_STEPS });
    return null;
  },
  drop: async (page, a) => {
    const el = await locate(page, a.target);
    await el.drop({ ...(a.paths?.length ? { files: a.paths } : {}), data: a.data }, act);
    return null;
  },
  press: async (page, a) => {
    await page.keyboard.press(a.key);
    return null;
  },
  evaluate: async (page, a) => {
    const fn = pageFunction(a.fn);
    const value = a.target
      ? await (await locate(page, a.target)).evaluate(fn)
      : await page.evaluate(fn);
    return { json: json(value) };
  },
  waitFor: async (page, a) => {
    const timeout = a.timeoutMs;
    // Text in any frame counts (a sign-in's "Welcome" lives in its frame); gone means gone
    // from every frame.
    const secs = timeout / 1000;
    if (a.text !== undefined) {
      const seen = new AbortController();
      const text = a.text;
      try {
        await Promise.any(
          page.frames().map((f) =>
            f.getByText(text).first().waitFor({ state: "visible", timeout, signal: seen.signal })
          ),
        );
      } catch (err) {
        const first = err instanceof AggregateError ? err.errors[0] : err;
        if (!timedOut(first)) throw first;
        throw new Refused(
          `${JSON.stringify(text)} did not appear in any frame of the page within ${secs} s; ` +
            "browser_find or browser_snapshot shows what the page says now",
        );
      } finally {
        seen.abort();
      }
    }
    if (a.textGone !== undefined) {
      const gone = a.textGone;
      await Promise.all(
        page.frames().map((f) => f.getByText(gone).first().waitFor({ state: "hidden", timeout })),
      ).catch((err) => {
        if (!timedOut(err)) throw err;
        throw new Refused(
          `${JSON.stringify(gone)} was still in a frame of the page after ${secs} s; ` +
            "browser_find or browser_snapshot shows what the page says now",
        );
      });
    }
    if (a.expression !== undefined) {
      await page.waitForFunction(pageFunction(`() => (${a.expression})`), undefined, { timeout })
        .catch((err) => {
          if (!timedOut(err)) throw err;
          throw new Refused(`the expression was still falsy in the page after ${secs} s`);
        });
    }
    return null;
  },
  formState: async (page, a) => {
    const fn = pageFunction<[null]>(FORM_STATE_JS);
    if (a.target) return String(await (await locate(page, a.target)).evaluate(fn, null));
    const parts: string[] = [];
    for (const frame of page.frames()) {
      const text = await formsOf(frame, fn);
      if (!text) continue;
      parts.push(
        frame === page.mainFrame() ? text : `- frame ${frame.url()}:\n${text.replace(/^/gm, "  ")}`,
      );
    }
    if (parts.length === 0) {
      throw new Refused("the page has no <form>; pass a container's ref as target");
    }
    return parts.join("\n");
  },
  shot: async (page, a) => {
    const opts = { type: a.type, scale: a.scale, ...act };
    if (a.target) return await (await locate(page, a.target)).screenshot(opts);
    return await page.screenshot({ ...opts, fullPage: a.fullPage === true });
  },
  runCode: async (page, a) => {
    // browser_run_code_unsafe, on only by `browser.run_code_unsafe`: the agent's snippet runs
    // here, with this worker's reach. That is what the key's name warns of.
    const fn = (0, eval)(`(${a.code})`) as unknown;
    if (typeof fn !== "function") {
      throw new Refused("code is not a function: write it `async (page) => { ... }`");
    }
    return { json: json(await (fn as (p: Page) => unknown)(page)) };
  },
};

/** How long the page's title may take: the snapshot answers without it rather than wait. */
const TITLE_MS = 2_000;

/** Whether Playwright gave up waiting (its TimeoutError: a name, and its words). */
const timedOut = (err: unknown) =>
  err instanceof Error &&
  (err.name === "TimeoutError" || /Timeout \d+ms exceeded/.test(err.message));

/**
 * The aria snapshot the agent asked for. One element's (`target`) is cut out of the page's when
 * the target is a ref the page's lists: a ref resolves against its frame's latest snapshot, so an
 * element's own snapshot would leave the page's other refs dead until the page's was taken again
 * - two snapshots where one does. A selector, or a `depth` (counted from the element), takes the
 * element's own, then the page's again behind it.
 */
async function snapshotYaml(page: Page, a: DriverOps["snapshot"]["args"]): Promise<string> {
  const opts = { mode: "ai" as const, depth: a.depth, boxes: a.boxes, timeout: 10_000 };
  if (!a.target) return await page.ariaSnapshot(opts);
  if (REF.test(a.target) && a.depth === undefined) {
    const whole = await page.ariaSnapshot(opts);
    const part = subtreeOf(whole, a.target);
    if (part !== null) return part;
  }
  const yaml = await (await locate(page, a.target)).ariaSnapshot(opts);
  // An element keeps its ref from snapshot to snapshot, so the element's refs stay good too.
  await page.ariaSnapshot({ mode: "ai", timeout: 10_000 });
  return yaml;
}

/** One frame's forms (open shadow roots included), or "" for a frame with none. */
async function formsOf(frame: Frame, fn: (root: null) => unknown): Promise<string> {
  // A frame that navigated away or will not run scripts has no form to list: "".
  const out = await frame.evaluate(fn, null).catch(() => null);
  return typeof out === "string" ? out : "";
}
