import { ioWords, isEngineError } from "../../server/subsystem.ts";
import type { ToolCall, ToolResult } from "../../server/subsystem.ts";
import type { BrowserHost } from "./host.ts";
import { type Page, PageError, settle, snapshot } from "./page_ops.ts";
import type { Profiles } from "./profiles.ts";
import type { Tab } from "./tab.ts";

/**
 * One page tool's body: the seat's page, its input as its own schema parsed it (tool_specs.ts),
 * and the call; its text (or result) is the answer.
 */
export type PageFn<I> = (
  p: Page,
  input: I,
  call: ToolCall,
) => Promise<string | ToolResult>;

/** A page tool's body wrapped onto the seat's tab: a handler for input `I`. */
export type OnPage = <I>(fn: PageFn<I>, opts?: { dialogOk?: boolean }) => ToolHandlerOn<I>;

/** A tool handler whose input is `I` (ToolHandlerOf, for an input already inferred). */
export type ToolHandlerOn<I> = (input: I, call: ToolCall) => Promise<ToolResult>;

/**
 * Wraps a page tool's body so it runs on the calling seat's own tab (spec: "Each session drives
 * its own tabs only"): the tab is `in_use` while it runs, a `held` tab (a parked hand-off) refuses
 * with the reason, an open page dialog refuses everything but browser_handle_dialog, and a
 * PageError or a start failure becomes a tool error in its own words.
 */
export function pageTool(profiles: Profiles): OnPage {
  return (fn, opts = {}) => async (input, call) => {
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
          "answer it with browser_handle_dialog first",
        isError: true,
      };
    }
    tab.calls++;
    browser.touch();
    try {
      const out = await fn({ cdp: browser.cdp!, tab, browser }, input, call);
      return withNotes(tab, typeof out === "string" ? { text: out } : out);
    } catch (err) {
      // CDP's or the engine's own message goes to seat_server, which logs it with its cause.
      if (!(err instanceof PageError)) throw new Error("the page call failed", { cause: err });
      return withNotes(tab, { text: err.message, isError: true });
    } finally {
      tab.calls--;
      browser.touch();
    }
  };
}

/** An answer with what forge did to the tab meanwhile (tab_health.ts), told once. */
function withNotes(tab: Tab, r: ToolResult): ToolResult {
  if (tab.notes.length === 0) return r;
  const notes = tab.notes.splice(0).map((n) => `- ${n}`).join("\n");
  return { ...r, text: `${r.text}\n### Note\n${notes}` };
}

/**
 * What an acting tool answers: its line under `### Result`, then the open dialog, or the page
 * as it now stands (its snapshot with fresh refs), as @playwright/mcp answers an action.
 */
export async function after(p: Page, what: string): Promise<string> {
  await settle(p);
  const result = `### Result\n${what}`;
  if (p.tab.dialog) return `${result}\n${modalState(p)}`;
  try {
    return `${result}\n${await snapshot(p)}`;
  } catch (err) {
    if (p.tab.dialog) return `${result}\n${modalState(p)}`;
    return `${result}\n### Page\n- the page could not be read just now (${
      (err as Error).message
    }); take a browser_snapshot`;
  }
}

/** The open page dialog, as the answer names it. */
export function modalState(p: Page): string {
  const d = p.tab.dialog!;
  return `### Modal state\n- A ${d.kind} dialog is open: ${JSON.stringify(d.message)}; ` +
    "answer it with browser_handle_dialog";
}

/** A path the agent gave, against the seat's working directory when relative. */
export function seatPath(path: string, call: ToolCall): string {
  return path.startsWith("/") ? path : `${call.seat.cwd}/${path}`;
}

/**
 * The original's `filename` argument: the answer written to a file (relative to the seat's
 * working directory) instead of returned, for an answer too long to read whole.
 */
export async function output(
  text: string,
  input: { filename?: string },
  call: ToolCall,
): Promise<string> {
  if (typeof input.filename !== "string" || input.filename === "") return text;
  const path = seatPath(input.filename, call);
  try {
    await Deno.writeTextFile(path, text);
  } catch (err) {
    throw new PageError(`could not write ${path}: ${ioWords(err)}`);
  }
  return `Saved ${text.length} characters to ${path}`;
}
