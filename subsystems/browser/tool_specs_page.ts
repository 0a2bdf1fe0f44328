import { z } from "zod";
import { defineTool } from "../../server/subsystem.ts";
import { element, filename, spec, target } from "./tool_args.ts";

const nullable = (values: [string, ...string[]], what: string) =>
  z.enum(values).nullable().optional().describe(`${what}; null clears it, omitted keeps it`);

/**
 * browser_run_code_unsafe: @playwright/mcp's Playwright snippet, run in forge's Playwright
 * worker with the server's reach (RCE-equivalent), so offered only while `browser.run_code_unsafe`
 * is true. The key is live: a reload offers or withdraws it.
 */
const RUN_CODE = defineTool({
  ...spec(
    "run_code_unsafe",
    "Run a Playwright code snippet. Unsafe: executes arbitrary JavaScript in forge's Playwright " +
      "process and is RCE-equivalent.",
    {
      code: z.string().optional().describe(
        "A function invoked with one argument, page: `async (page) => { await " +
          "page.getByRole('button', { name: 'Submit' }).click(); return await page.title(); }`",
      ),
      filename: z.string().optional().describe(
        "Load the code from this file (relative names resolve against your working " +
          "directory); it wins over code",
      ),
    },
  ),
  when: (config) => config.areas.browser?.run_code_unsafe === true,
});

/**
 * The tools beyond one element's action: tabs, waiting, evaluation, console, network, dialogs,
 * layout, and forge's own (click_and_capture, form_state, hand_off).
 */
export const PAGE_TOOLS = [
  spec("tabs", "List, create, close, or select a browser tab (only this session's own tabs)", {
    action: z.enum(["list", "new", "close", "select"]).describe("Operation to perform"),
    index: z.number().int().min(0).optional().describe(
      "Tab index, from 0, in this session's list; used for close/select. If omitted for " +
        "close, the current tab is closed. (Each line also names forge's tab number, which " +
        "hand-offs and the people watching use.)",
    ),
    url: z.string().optional().describe("The URL a new tab opens"),
  }),
  spec("wait_for", "Wait for text to appear or disappear or a specified time to pass", {
    time: z.number().min(0).max(30).optional().describe("The time to wait in seconds"),
    text: z.string().optional().describe(
      "The text to wait for to appear, in any frame of the page (up to 30 s)",
    ),
    textGone: z.string().optional().describe(
      "The text to wait for to disappear from every frame of the page (up to 30 s)",
    ),
    expression: z.string().optional().describe("JavaScript polled in the page until truthy"),
  }),
  spec("evaluate", "Evaluate JavaScript expression on page or element", {
    function: z.string().describe("() => { /* code */ } or (element) => { /* code */ }"),
    element,
    target: target.optional().describe("The element passed to the function"),
    filename,
  }),
  RUN_CODE,
  spec("console_messages", "Returns all console messages", {
    level: z.enum(["error", "warning", "info", "debug"]).describe(
      "Level of the messages to return; each level includes the more severe ones (info is " +
        "the usual choice)",
    ),
    all: z.boolean().optional().describe(
      "Return all console messages since the tab opened, not just since the last navigation",
    ),
    filename,
  }, true),
  spec(
    "network_requests",
    "Returns a numbered list of network requests since loading the page. " +
      "Use browser_network_request with the number to get full details.",
    {
      static: z.boolean().describe(
        "Whether to include successful static resources like images, fonts, scripts (false " +
          "is the usual choice)",
      ),
      filter: z.string().optional().describe(
        'Only return requests whose URL matches this regexp (e.g. "/api/.*user")',
      ),
      filename,
    },
    true,
  ),
  spec(
    "network_request",
    "Returns full details (headers and body) of a single network request, or one part",
    {
      index: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe(
        "1-based index of the request, as printed by browser_network_requests",
      ),
      part: z.enum(["request-headers", "request-body", "response-headers", "response-body"])
        .optional().describe("Return only this part of the request; omit for full details"),
      filename,
    },
    true,
  ),
  spec("handle_dialog", "Handle a dialog", {
    accept: z.boolean().describe("Whether to accept the dialog"),
    promptText: z.string().optional().describe("The text of the prompt in case of a prompt"),
  }),
  spec("emulate_media", "Emulate CSS media type and features for the page", {
    colorScheme: nullable(["light", "dark"], "prefers-color-scheme"),
    reducedMotion: nullable(["reduce", "no-preference"], "prefers-reduced-motion"),
    forcedColors: nullable(["active", "none"], "forced-colors"),
    contrast: nullable(["more", "no-preference"], "prefers-contrast"),
    media: nullable(["screen", "print"], "the CSS media type"),
  }),
  spec("resize", "Resize the browser window", {
    // forge's bounds: a whole number of CSS pixels, 100 to 8K.
    width: z.number().int().min(100).max(7680).describe(
      "Width of the page in CSS pixels (a whole number, 100 to 7680)",
    ),
    height: z.number().int().min(100).max(4320).describe(
      "Height of the page in CSS pixels (a whole number, 100 to 4320)",
    ),
  }),
  spec("close", "Close the page (this session's current tab)", {}),
  spec(
    "click_and_capture",
    "Click an element and return the responses the click triggered (url, status, body)",
    {
      target,
      element,
      settleMs: z.number().int().min(0).max(30_000).optional().describe(
        "How long to collect responses after the click, in ms (default 1500)",
      ),
    },
  ),
  spec("form_state", "Read each form field's value, validity and control text", {
    target: target.optional().describe(
      "a form or container (ref or selector); omit for every form",
    ),
    element,
  }, true),
  spec(
    "hand_off",
    "Ask the person to do something themselves in this browser tab (sign in, solve a check). " +
      "BLOCKS until they say they are done or decline; the page tools on that tab wait meanwhile.",
    {
      reason: z.string().min(1).describe("what the person should do; shown on the prompt"),
      page: z.string().optional().describe(
        "forge's addition: the page id browser_tabs lists, to hand off a tab other than your " +
          "current one; omit for your current tab",
      ),
    },
  ),
] as const;
