import { slotName } from "../../protocol/mod.ts";
import type { Host, ToolHandler, ToolResult } from "../../server/subsystem.ts";
import type { Files } from "./files.ts";
import { clickAt, pressKey } from "./input.ts";
import {
  centre,
  evaluate,
  fill,
  find,
  onElement,
  PageError,
  selectOptions,
  settle,
  snapshot,
} from "./page_ops.ts";
import type { Profiles } from "./profiles.ts";
import { handOff } from "./hand_off.ts";
import { after, type In, pageTool } from "./page_tool.ts";
import { moreTools } from "./tools_more.ts";
import { netTools } from "./tools_net.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MOD: Record<string, string> = {
  Alt: "alt",
  Control: "ctrl",
  ControlOrMeta: "ctrl",
  Meta: "meta",
  Shift: "shift",
};

/**
 * The handlers of the browser family (tool_specs.ts). Each call drives the calling seat's own
 * tab (spec: "Each session drives its own tabs only"): the tab is `in_use` while it runs, a
 * `held` tab (a parked hand-off) refuses with the reason, an open page dialog refuses everything
 * but browser__handle_dialog.
 */
export function browserTools(
  host: Host,
  profiles: Profiles,
  files: Files,
): Record<string, ToolHandler> {
  const onPage = pageTool(profiles);

  const go = (back: boolean) =>
    onPage(async (p) => {
      if (!(await p.tab.go(back))) {
        throw new PageError(`there is no page to go ${back ? "back" : "forward"} to`);
      }
      return await after(p, `Went ${back ? "back" : "forward"}`);
    });

  const handlers: Record<string, ToolHandler> = {
    browser__navigate: onPage(async (p, i) => {
      const url = String(i.url);
      const r = await p.cdp.send("Page.navigate", { url }, p.tab.session);
      if (r.errorText) throw new PageError(`navigating to ${url} failed: ${r.errorText}`);
      return await after(p, `Navigated to ${url}`);
    }),
    browser__navigate_back: go(true),
    browser__navigate_forward: go(false),
    browser__snapshot: onPage(async (p) => await snapshot(p)),
    browser__click: onPage(async (p, i) => {
      const at = await centre(p, await find(p, String(i.target)));
      await p.tab.inputUnlessDialog(clickAt(p.cdp, p.tab.session, at.x, at.y, {
        button: i.button as string | undefined,
        clicks: i.doubleClick ? 2 : 1,
        modifiers: ((i.modifiers as string[] | undefined) ?? []).map((m) => MOD[m]),
      }));
      return await after(p, `Clicked ${i.element ?? i.target}`);
    }),
    browser__hover: onPage(async (p, i) => {
      const at = await centre(p, await find(p, String(i.target)));
      await p.cdp.send("Input.dispatchMouseEvent", {
        type: "mouseMoved",
        x: at.x,
        y: at.y,
      }, p.tab.session);
      return await after(p, `Hovered ${i.element ?? i.target}`);
    }),
    browser__type: onPage(async (p, i) => {
      const el = await find(p, String(i.target));
      const text = String(i.text);
      if (i.slowly) {
        await onElement(p, el, "function () { this.focus(); }");
        for (const ch of text) await pressKey(p.cdp, p.tab.session, ch);
      } else await fill(p, el, text);
      if (i.submit) await p.tab.inputUnlessDialog(pressKey(p.cdp, p.tab.session, "Enter"));
      return await after(p, `Typed ${[...text].length} characters into ${i.element ?? i.target}`);
    }),
    browser__press_key: onPage(async (p, i) => {
      const parts = String(i.key).split("+");
      const key = parts.pop() || "+";
      await p.tab.inputUnlessDialog(
        pressKey(p.cdp, p.tab.session, key, parts.map((m) => MOD[m] ?? m.toLowerCase())),
      );
      return await after(p, `Pressed ${i.key}`);
    }),
    browser__fill_form: onPage(async (p, i) => {
      const fields = i.fields as { target: string; name: string; type: string; value: string }[];
      for (const f of fields) {
        const el = await find(p, f.target);
        if (f.type === "checkbox" || f.type === "radio") {
          const want = f.value === "true";
          const checked = await onElement(p, el, "function () { return this.checked; }");
          if (checked !== want) {
            const at = await centre(p, el);
            await clickAt(p.cdp, p.tab.session, at.x, at.y);
          }
        } else if (f.type === "combobox") await selectOptions(p, el, [f.value]);
        else await fill(p, el, f.value);
      }
      return await after(p, `Filled ${fields.length} field(s)`);
    }),
    browser__select_option: onPage(async (p, i) => {
      const chosen = await selectOptions(p, await find(p, String(i.target)), i.values as string[]);
      return await after(p, `Selected ${JSON.stringify(chosen)}`);
    }),
    browser__wait_for: onPage(async (p, i, call) => {
      // A wait the CLI cancels (an interrupt) ends now, not when its own clock runs out.
      const cancelled = () => {
        if (call.signal.aborted) throw new PageError("the wait was cancelled");
      };
      if (typeof i.time === "number") {
        await new Promise<void>((done) => {
          const timer = setTimeout(done, (i.time as number) * 1000);
          call.signal.addEventListener("abort", () => (clearTimeout(timer), done()), {
            once: true,
          });
        });
        cancelled();
      }
      const tests: string[] = [];
      if (typeof i.text === "string") {
        tests.push(`document.body && document.body.innerText.includes(${JSON.stringify(i.text)})`);
      }
      if (typeof i.textGone === "string") {
        tests.push(
          `!(document.body && document.body.innerText.includes(${JSON.stringify(i.textGone)}))`,
        );
      }
      if (typeof i.expression === "string") tests.push(`!!(${i.expression})`);
      if (tests.length === 0 && typeof i.time !== "number") {
        throw new PageError("browser__wait_for needs time, text, textGone or expression");
      }
      const until = performance.now() + 30_000;
      for (const t of tests) {
        // A test that throws (the page is mid-navigation) has not held yet: asked again.
        while (!(await evaluate(p, t).catch(() => false))) {
          if (performance.now() > until) throw new PageError(`waited 30 s and ${t} never held`);
          cancelled();
          await sleep(100);
        }
      }
      return await after(p, "Waited");
    }),
    browser__take_screenshot: onPage(async (p, i) => {
      const type = (i.type as string | undefined) ?? "png";
      const shot = await p.cdp.send("Page.captureScreenshot", {
        format: type,
        captureBeyondViewport: i.fullPage === true,
      }, p.tab.session);
      const dir = `${p.browser.dir}/screenshots`;
      await Deno.mkdir(dir, { recursive: true });
      const path = `${dir}/page-${Date.now()}.${type}`;
      const bin = atob(String(shot.data));
      await Deno.writeFile(path, Uint8Array.from(bin, (c) => c.charCodeAt(0)));
      return `Took a screenshot of tab ${p.tab.number} (${bin.length} bytes), saved to ${path}`;
    }),
    browser__evaluate: onPage(async (p, i) => {
      const fn = String(i.function);
      const value = typeof i.target === "string"
        ? await onElement(p, await find(p, i.target), `function () { return (${fn})(this); }`)
        : await evaluate(p, `(${fn})()`);
      return JSON.stringify(value ?? null, null, 1) ?? "undefined";
    }),
    browser__file_upload: onPage(async (p, i) => {
      const chooser = files.chooserOf(p.tab);
      if (!chooser) throw new PageError("no file chooser is open on this tab; click the input");
      const paths = (i.paths as string[] | undefined) ?? [];
      for (const path of paths) {
        if (!path.startsWith("/")) throw new PageError(`${path} is not an absolute path`);
        // A probe: a path that cannot be stat'ed is refused below as not a file.
        if (!(await Deno.stat(path).catch(() => null))?.isFile) {
          throw new PageError(`${path} is not a file`);
        }
      }
      await files.give(chooser, paths);
      return await after(p, paths.length ? `Uploaded ${paths.length} file(s)` : "Cancelled");
    }),
    browser__handle_dialog: onPage(async (p, i) => {
      if (!p.tab.dialog) throw new PageError("no dialog is open on this tab");
      await p.cdp.send("Page.handleJavaScriptDialog", {
        accept: i.accept === true,
        ...(typeof i.promptText === "string" ? { promptText: i.promptText } : {}),
      }, p.tab.session);
      return await after(p, `${i.accept ? "Accepted" : "Dismissed"} the dialog`);
    }, { dialogOk: true }),
    browser__tabs: async (input, call): Promise<ToolResult> => {
      const i = input as In;
      const browser = profiles.forSeat(call.seat.slot);
      const me = slotName(call.seat.slot);
      const mine = () =>
        [...browser.tabs.values()].filter((t) => t.owner && slotName(t.owner) === me);
      try {
        await browser.tabFor(call.seat.slot);
        const n = typeof i.index === "number" ? i.index : browser.current.get(me);
        const pick = () => {
          const t = mine().find((t) => t.number === n);
          if (!t) throw new PageError(`tab ${n} is not one of yours; yours are ${list()}`);
          return t;
        };
        const list = () =>
          mine().map((t) =>
            `${t.number}${browser.current.get(me) === t.number ? " (current)" : ""}: ` +
            `${JSON.stringify(t.title)} ${t.url} page=${t.targetId}`
          ).join("; ");
        if (i.action === "new") {
          const t = await browser.openTab(typeof i.url === "string" ? i.url : "about:blank");
          t.owner = call.seat.slot;
          await settle({ cdp: browser.cdp!, tab: t });
          t.url = String(await evaluate({ cdp: browser.cdp!, tab: t }, "location.href"));
          t.title = String(await evaluate({ cdp: browser.cdp!, tab: t }, "document.title"));
          browser.current.set(me, t.number);
        } else if (i.action === "select") browser.current.set(me, pick().number);
        else if (i.action === "close") await browser.closeTab(pick());
        // The answer names each tab by the title its page holds now, not the last one heard.
        await Promise.all(mine().map((t) => t.refreshTitle()));
        host.log.debug("browser_tool_tabs", { seat: me, action: i.action });
        return { text: `Tabs: ${list() || "none"}` };
      } catch (err) {
        return { text: (err as Error).message, isError: true };
      }
    },
    browser__close: (_input, call): Promise<ToolResult> => {
      const browser = profiles.forSeat(call.seat.slot);
      const n = browser.current.get(slotName(call.seat.slot));
      const tab = n === undefined ? undefined : browser.tabs.get(n);
      if (!tab) return Promise.resolve({ text: "no tab of this session is open", isError: true });
      if (tab.held) {
        return Promise.resolve({
          text: `tab ${tab.number} is held by a hand-off (${tab.held}); it stays open`,
          isError: true,
        });
      }
      return browser.closeTab(tab).then(() => ({ text: `Closed tab ${tab.number}` }));
    },
    browser__hand_off: (input, call) => handOff(host, profiles, input as In, call),
    ...moreTools(onPage),
    ...netTools(onPage),
  };
  return handlers;
}
