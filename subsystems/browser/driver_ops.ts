/**
 * The page driver's operations (driver.ts), run in its Worker on Playwright objects. A target is
 * a ref from the latest aria snapshot (`e5`, `f1e5` inside a frame: Playwright's `aria-ref`,
 * which reaches into open shadow roots and frames alike) or a selector naming one element. A ref
 * that names nothing now is refused in words that send the agent back to browser_snapshot.
 */
import type { Frame, Locator, Page } from "playwright-core";
import type { DriverOps } from "./driver.ts";
import { FORM_STATE_JS } from "./form_state.ts";

/** A sentence already in forge's words: passed to the agent as it is. */
export class Refused extends Error {}

/** One field of browser_fill_form. */
export interface FillField {
  target: string;
  name: string;
  type: "textbox" | "checkbox" | "radio" | "combobox" | "slider";
  value: string;
}

/** A snapshot ref: `e<n>`, or `f<frame>e<n>` for an element of a child frame. */
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
      `target ${JSON.stringify(target)} is neither a ref from browser_snapshot (e5, f1e5) ` +
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

/**
 * A Playwright page function from its source text, without running that text here: Playwright
 * sends a function's source (`String(fn)`) to the page and calls it there.
 */
function pageFunction<A extends unknown[]>(source: string): (...args: A) => unknown {
  const fn = () => undefined;
  fn.toString = () => source;
  return fn;
}

/** JSON of a value the page returned, `undefined` spelled out. */
const json = (v: unknown) => JSON.stringify(v ?? null, null, 1) ?? "undefined";

type Ops = {
  [K in keyof DriverOps]: (page: Page, a: DriverOps[K]["args"]) => Promise<DriverOps[K]["result"]>;
};

export const DRIVER_OPS: Ops = {
  snapshot: async (page, a) => {
    const opts = { mode: "ai" as const, depth: a.depth, boxes: a.boxes, timeout: 10_000 };
    let yaml: string;
    if (a.target) {
      yaml = await (await locate(page, a.target)).ariaSnapshot(opts);
      // A ref resolves against its frame's latest snapshot, which was just this element's: the
      // page's is taken again so every ref the agent holds still acts (an element keeps its ref
      // from snapshot to snapshot, so the element's refs stay good too).
      await page.ariaSnapshot({ mode: "ai", timeout: 10_000 });
    } else yaml = await page.ariaSnapshot(opts);
    return { url: page.url(), title: await page.title(), yaml: await maskPasswords(page, yaml) };
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
    if (a.slowly) await el.pressSequentially(a.text, act);
    else await el.fill(a.text, act);
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
        throw err instanceof AggregateError ? err.errors[0] : err;
      } finally {
        seen.abort();
      }
    }
    if (a.textGone !== undefined) {
      const gone = a.textGone;
      await Promise.all(
        page.frames().map((f) => f.getByText(gone).first().waitFor({ state: "hidden", timeout })),
      );
    }
    if (a.expression !== undefined) {
      await page.waitForFunction(pageFunction(`() => (${a.expression})`), undefined, { timeout });
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

/** A textbox line that shows a value: `- textbox "Password" [ref=e5]: hunter2`. */
const VALUE_LINE = /^(\s*- textbox\b[^\n]*?: )(.+)$/gm;

/** The values of a frame's password fields, open shadow roots included. */
const PASSWORDS_JS = `() => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.tagName === "INPUT" && el.type === "password" && el.value) out.push(el.value);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}`;

/**
 * Playwright's snapshot shows a textbox's value, a password's too. A password the person typed
 * in a hand-off is theirs: each password field's value is shown as its length only. The frames
 * are asked only when some textbox shows a value at all.
 */
async function maskPasswords(page: Page, yaml: string): Promise<string> {
  if (!yaml.match(VALUE_LINE)) return yaml;
  const secrets = new Set<string>();
  for (const frame of page.frames()) {
    // A frame that navigated away or will not run scripts holds no password to hide.
    const values = await frame.evaluate(pageFunction(PASSWORDS_JS)).catch(() => []);
    for (const v of values as string[]) secrets.add(v);
  }
  if (secrets.size === 0) return yaml;
  return yaml.replace(VALUE_LINE, (line, head: string, value: string) => {
    let shown = value;
    try {
      if (value.startsWith('"')) shown = JSON.parse(value);
    } catch { /* YAML quoting JSON cannot read: compared as written */ }
    return secrets.has(shown) ? `${head}(a password, ${[...shown].length} characters)` : line;
  });
}

/** One frame's forms (open shadow roots included), or "" for a frame with none. */
async function formsOf(frame: Frame, fn: (root: null) => unknown): Promise<string> {
  // A frame that navigated away or will not run scripts has no form to list: "".
  const out = await frame.evaluate(fn, null).catch(() => null);
  return typeof out === "string" ? out : "";
}
