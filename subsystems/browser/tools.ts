import { Buffer } from "node:buffer";
import { isFile } from "../../server/path_kind.ts";
import { type Host, type ToolHandler, toolHandlers } from "../../server/subsystem.ts";
import type { Files } from "./files.ts";
import { drive, PageError, snapshot } from "./page_ops.ts";
import type { Profiles } from "./profiles.ts";
import { handOff } from "./hand_off.ts";
import { after, output, pageTool, seatPath } from "./page_tool.ts";
import { BROWSER_TOOLS } from "./tool_specs.ts";
import { tabTools } from "./tools_tabs.ts";
import { layoutTools } from "./tools_layout.ts";
import { netTools } from "./tools_net.ts";
import { readTools } from "./tools_read.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long browser_wait_for waits for its text, its text to go, or its expression. */
const WAIT_MS = 30_000;
/** How an answer names the element acted on: the agent's description, else its target. */
const said = (element: string | undefined, target: string) => element ?? target;

/** Every path a tool was given is absolute and names a file, or a PageError says which is not. */
async function files(paths: string[]): Promise<void> {
  for (const path of paths) {
    if (!path.startsWith("/")) throw new PageError(`${path} is not an absolute path`);
    // A path that cannot be stat'ed is refused as not a file.
    if (!await isFile(path)) {
      throw new PageError(`${path} is not a file`);
    }
  }
}

/**
 * The browser family's `profile` argument: a seat's browser profile is forge.toml's (spec:
 * browser_tabs, "a seat's profile is forge.toml's"; there is no profile verb), so a call may
 * name its own - `default` or `Acme/default` - and is refused, in words, for any other.
 */
function ownProfileOnly(
  profiles: Profiles,
  tools: Record<string, ToolHandler>,
): Record<string, ToolHandler> {
  const guard = (handler: ToolHandler): ToolHandler => (input, call) => {
    // Every browser tool's schema carries `profile` (tool_args.ts), parsed before this runs.
    const named = typeof input === "object" && input !== null && "profile" in input
      ? input.profile
      : undefined;
    const key = profiles.keyFor(call.seat.slot);
    if (typeof named !== "string" || key === null) return handler(input, call);
    const own = key.slice(key.indexOf("/") + 1);
    if (named === own || named === key) return handler(input, call);
    return Promise.resolve({
      text: `this session's browser profile is "${own}" (forge.toml: its project's ` +
        `browser_profile, else its org's, else default); profile "${named}" is not one it can ` +
        `use. Omit profile, or name "${own}".`,
      isError: true,
    });
  };
  return Object.fromEntries(Object.entries(tools).map(([name, h]) => [name, guard(h)]));
}

/**
 * The handlers of the browser family (tool_specs.ts). Each call drives the calling seat's own
 * tab (spec: "Each session drives its own tabs only"): the tab is `in_use` while it runs, a
 * `held` tab (a parked hand-off) refuses with the reason, an open page dialog refuses everything
 * but browser_handle_dialog. Element work goes through the host's Playwright (driver.ts); the
 * page's history, dialogs, console and network stay on forge's own CDP connection.
 */
export function browserTools(
  host: Host,
  profiles: Profiles,
  chooser: Files,
): Record<string, ToolHandler> {
  const onPage = pageTool(profiles);

  const go = (back: boolean) =>
    onPage(async (p) => {
      if (!(await p.tab.go(back))) {
        throw new PageError(`there is no page to go ${back ? "back" : "forward"} to`);
      }
      return await after(p, `Went ${back ? "back" : "forward"}`);
    });

  const handlers = toolHandlers(BROWSER_TOOLS)({
    browser_navigate: onPage(async (p, { url }) => {
      const r = await p.cdp.send("Page.navigate", { url }, p.tab.session);
      if (r.errorText) throw new PageError(`navigating to ${url} failed: ${r.errorText}`);
      return await after(p, `Navigated to ${url}`);
    }),
    browser_navigate_back: go(true),
    browser_navigate_forward: go(false),
    browser_snapshot: onPage(async (p, i, call) => {
      const page = await snapshot(p, { target: i.target, depth: i.depth, boxes: i.boxes });
      return await output(page, i, call);
    }),
    browser_click: onPage(async (p, i) => {
      await p.tab.inputUnlessDialog(drive(p, "click", {
        target: i.target,
        doubleClick: i.doubleClick === true,
        button: i.button,
        modifiers: i.modifiers,
        force: i.force === true,
      }));
      return await after(
        p,
        `${i.doubleClick ? "Double-clicked" : "Clicked"} ${said(i.element, i.target)}`,
      );
    }),
    browser_hover: onPage(async (p, i) => {
      await p.tab.inputUnlessDialog(drive(p, "hover", { target: i.target }));
      return await after(p, `Hovered over ${said(i.element, i.target)}`);
    }),
    browser_type: onPage(async (p, i) => {
      const text = i.text;
      await p.tab.inputUnlessDialog(drive(p, "type", {
        target: i.target,
        text,
        slowly: i.slowly === true,
        submit: i.submit === true,
      }));
      return await after(
        p,
        `Typed ${[...text].length} characters into ${said(i.element, i.target)}`,
      );
    }),
    browser_press_key: onPage(async (p, i) => {
      await p.tab.inputUnlessDialog(drive(p, "press", { key: i.key }));
      return await after(p, `Pressed ${i.key}`);
    }),
    browser_fill_form: onPage(async (p, { fields }) => {
      await p.tab.inputUnlessDialog(drive(p, "fillForm", {
        fields: fields.map(({ target, name, type, value }) => ({ target, name, type, value })),
      }));
      return await after(p, `Filled ${fields.map((f) => f.name).join(", ")}`);
    }),
    browser_select_option: onPage(async (p, i) => {
      const values = i.values;
      const chosen = await p.tab.unlessDialog(drive(p, "select", { target: i.target, values }));
      // A dialog the change opened holds Playwright's answer: the values asked for are named.
      return await after(
        p,
        `Selected ${JSON.stringify(chosen?.value ?? values)} in ${said(i.element, i.target)}`,
      );
    }),
    browser_drag: onPage(async (p, i) => {
      await p.tab.inputUnlessDialog(drive(p, "drag", {
        startTarget: i.startTarget,
        endTarget: i.endTarget,
      }));
      return await after(p, `Dragged ${i.startTarget} to ${i.endTarget}`);
    }),
    browser_drop: onPage(async (p, i) => {
      const paths = i.paths ?? [];
      const data = i.data;
      if (paths.length === 0 && !data) {
        throw new PageError('browser_drop needs "paths" or "data" (or both) to drop');
      }
      await files(paths);
      await p.tab.inputUnlessDialog(drive(p, "drop", { target: i.target, paths, data }));
      return await after(p, `Dropped ${paths.length} file(s) onto ${said(i.element, i.target)}`);
    }),
    browser_file_upload: onPage(async (p, i) => {
      const open = chooser.chooserOf(p.tab);
      if (!open) throw new PageError("no file chooser is open on this tab; click the input");
      const paths = i.paths ?? [];
      await files(paths);
      await chooser.give(open, paths);
      return await after(p, paths.length ? `Uploaded ${paths.length} file(s)` : "Cancelled");
    }),
    browser_wait_for: onPage(async (p, i, call) => {
      // A wait the CLI cancels (an interrupt) ends now, not when its own clock runs out.
      const cancel = new Promise<never>((_, reject) => {
        const stop = () => reject(new PageError("the wait was cancelled"));
        if (call.signal.aborted) stop();
        else call.signal.addEventListener("abort", stop, { once: true });
      });
      // Heard by the race below; a wait that ended first leaves it with no listener.
      cancel.catch(() => {});
      if (typeof i.time === "number") await Promise.race([sleep(i.time * 1000), cancel]);
      const until = { text: i.text, textGone: i.textGone, expression: i.expression };
      const some = Object.values(until).some((v) => v !== undefined);
      if (!some && typeof i.time !== "number") {
        throw new PageError("browser_wait_for needs time, text, textGone or expression");
      }
      // The wait's own 30 s, and the ask's bound past it: the wait answers in its own words.
      if (some) {
        await Promise.race([
          drive(p, "waitFor", { ...until, timeoutMs: WAIT_MS }, WAIT_MS + 5_000),
          cancel,
        ]);
      }
      return await after(p, "Waited");
    }),
    browser_take_screenshot: onPage(async (p, i, call) => {
      const type = i.type ?? "png";
      if (i.fullPage === true && typeof i.target === "string") {
        throw new PageError("fullPage cannot be used with an element's screenshot");
      }
      const bytes = await drive(p, "shot", {
        target: i.target,
        type,
        scale: i.scale,
        fullPage: i.fullPage === true,
      });
      const path = typeof i.filename === "string"
        ? seatPath(i.filename, call)
        : `${p.browser.dir}/screenshots/page-${Date.now()}.${type}`;
      await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeFile(path, bytes);
      const of = typeof i.target === "string"
        ? said(i.element, i.target)
        : i.fullPage
        ? "the full page"
        : "the viewport";
      return {
        text: `Took a screenshot of ${of} in tab ${p.tab.number} (${bytes.length} bytes), ` +
          `saved to ${path}`,
        images: [{ data: Buffer.from(bytes).toString("base64"), mimeType: `image/${type}` }],
      };
    }),
    browser_evaluate: onPage(async (p, i, call) => {
      const done = await p.tab.unlessDialog(drive(p, "evaluate", {
        fn: i.function,
        target: i.target,
      }));
      // A dialog the function opened holds it unfinished: what it returns is not known yet.
      if (!done) return await after(p, "The function opened a page dialog before it returned");
      return await output(done.value.json, i, call);
    }),
    browser_run_code_unsafe: onPage(async (p, i, call) => {
      let code = typeof i.code === "string" ? i.code : null;
      if (typeof i.filename === "string") {
        const path = seatPath(i.filename, call);
        code = await Deno.readTextFile(path).catch((err) => {
          throw new PageError(`could not read ${path}: ${(err as Error).message}`);
        });
      }
      if (!code) throw new PageError("browser_run_code_unsafe needs code or filename");
      return (await drive(p, "runCode", { code })).json;
    }),
    browser_handle_dialog: onPage(async (p, i) => {
      if (!p.tab.dialog) throw new PageError("no dialog is open on this tab");
      await p.cdp.send("Page.handleJavaScriptDialog", {
        accept: i.accept === true,
        ...(typeof i.promptText === "string" ? { promptText: i.promptText } : {}),
      }, p.tab.session);
      return await after(p, `${i.accept ? "Accepted" : "Dismissed"} the dialog`);
    }, { dialogOk: true }),
    ...tabTools(host, profiles),
    browser_hand_off: (input, call) => handOff(host, profiles, input, call),
    ...readTools(onPage),
    ...layoutTools(onPage),
    ...netTools(onPage),
  });
  return ownProfileOnly(profiles, handlers);
}
