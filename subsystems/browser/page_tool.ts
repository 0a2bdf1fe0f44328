import { ioWords, isEngineError } from "../../server/subsystem.ts";
import type { ToolCall, ToolHandler } from "../../server/subsystem.ts";
import type { BrowserHost } from "./host.ts";
import { type Page, PageError, settle, snapshot } from "./page_ops.ts";
import type { Profiles } from "./profiles.ts";
import type { Tab } from "./tab.ts";

/** A tool's input, as the MCP server validated it against the tool's schema (tool_specs.ts). */
export type In = Record<string, unknown>;

/** One page tool's body: the seat's page and the call; its text is the tool's answer. */
export type PageFn = (
  p: Page & { browser: BrowserHost },
  input: In,
  call: ToolCall,
) => Promise<string>;

/**
 * Wraps a page tool's body so it runs on the calling seat's own tab (spec: "Each session drives
 * its own tabs only"): the tab is `in_use` while it runs, a `held` tab (a parked hand-off) refuses
 * with the reason, an open page dialog refuses everything but browser__handle_dialog, and a
 * PageError or a start failure becomes a tool error in its own words.
 */
export function pageTool(profiles: Profiles) {
  return (fn: PageFn, opts: { dialogOk?: boolean } = {}): ToolHandler => async (input, call) => {
    let browser: BrowserHost;
    let tab: Tab;
    try {
      browser = profiles.forSeat(call.seat.slot);
      tab = await browser.tabFor(call.seat.slot);
    } catch (err) {
      if (isEngineError(err)) throw new Error("the browser could not start", { cause: err });
      return { text: `the browser could not start: ${(err as Error).message}`, isError: true };
    }
    if (tab.held) {
      return {
        text: `tab ${tab.number} is held: a hand-off (${tab.held}) is waiting on the person ` +
          "in it; drive the page again once it resolves",
        isError: true,
      };
    }
    if (tab.dialog && !opts.dialogOk) {
      return {
        text:
          `a page dialog is open (${tab.dialog.kind}: ${JSON.stringify(tab.dialog.message)}); ` +
          "answer it with browser__handle_dialog first",
        isError: true,
      };
    }
    tab.calls++;
    browser.touch();
    try {
      return { text: await fn({ cdp: browser.cdp!, tab, browser }, input as In, call) };
    } catch (err) {
      // CDP's or the engine's own message goes to seat_server, which logs it with its cause.
      if (!(err instanceof PageError)) throw new Error("the page call failed", { cause: err });
      return { text: err.message, isError: true };
    } finally {
      tab.calls--;
      browser.touch();
    }
  };
}

/** What an acting tool answers: its line, then the open dialog or the page's new snapshot. */
export async function after(p: Page, what: string): Promise<string> {
  await settle(p);
  if (p.tab.dialog) {
    return `${what}\n- A ${p.tab.dialog.kind} dialog is open: ${
      JSON.stringify(p.tab.dialog.message)
    }`;
  }
  return `${what}\n${await snapshot(p)}`;
}

/**
 * The original's `filename` argument: the answer written to a file (relative to the seat's
 * working directory) instead of returned, for an answer too long to read whole.
 */
export async function output(text: string, input: In, call: ToolCall): Promise<string> {
  if (typeof input.filename !== "string" || input.filename === "") return text;
  const path = input.filename.startsWith("/")
    ? input.filename
    : `${call.seat.cwd}/${input.filename}`;
  try {
    await Deno.writeTextFile(path, text);
  } catch (err) {
    throw new PageError(`could not write ${path}: ${ioWords(err)}`);
  }
  return `Saved ${text.length} characters to ${path}`;
}
