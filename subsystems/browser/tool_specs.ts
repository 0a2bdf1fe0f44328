import { z } from "zod";
import type { ToolSpec } from "../../server/subsystem.ts";

// forge's browser family: @playwright/mcp's core tools under forge's
// `<family>__<verb>` naming (spec mcp_tools.md §5 lists the original's `browser_*`), built on CDP
// against the same Chromium people watch. `target` is a `[ref=eN]` from the last snapshot (or a
// CSS selector); `element` is the human description Playwright asks for, kept for the record.

const target = z.string().min(1).describe("the element's ref from browser__snapshot, e.g. e12");
const element = z.string().optional().describe("human-readable description of the element");
const filename = z.string().optional().describe(
  "File to save the answer to (relative to your working directory); omitted returns it as text",
);
const nullable = (values: [string, ...string[]], what: string) =>
  z.enum(values).nullable().optional().describe(`${what}; null clears it, omitted keeps it`);
const roles = ["lead", "worker"] as const;
const spec = (
  verb: string,
  description: string,
  shape: z.ZodRawShape,
  readOnly = false,
): ToolSpec => ({
  name: `browser__${verb}`,
  family: "browser",
  description,
  input: z.object(shape).strict(),
  roles,
  readOnly,
});

/**
 * The browser tools' declarations, in @playwright/mcp's order where it has them. Not offered:
 * `browser_run_code_unsafe` (a Playwright snippet run against a `page` object forge does not have;
 * it is also arbitrary code on the server, RCE-equivalent, beyond what browser__evaluate runs in
 * the page) and `browser_drop` (files or MIME data dropped in from the server's disk: the agent
 * has browser__file_upload for files, and a drop from arbitrary paths is the same disk-reading
 * reach without the file chooser's bounds).
 */
export const BROWSER_TOOLS: ToolSpec[] = [
  spec("navigate", "Navigate to a URL", { url: z.string().describe("The URL to navigate to") }),
  spec("navigate_back", "Go back to the previous page", {}),
  spec("navigate_forward", "Go forward to the next page", {}),
  spec(
    "snapshot",
    "Capture accessibility snapshot of the current page, this is better than screenshot",
    {},
  ),
  spec("find", "Search the page's snapshot for text or a regex; cheaper than a full snapshot", {
    text: z.string().min(1).optional().describe("case-insensitive substring to find"),
    regex: z.string().min(1).optional().describe("a regular expression written /pattern/flags"),
    filename,
  }, true),
  spec("click", "Perform click on a web page", {
    target,
    element,
    doubleClick: z.boolean().optional(),
    button: z.enum(["left", "right", "middle"]).optional(),
    modifiers: z.array(z.enum(["Alt", "Control", "ControlOrMeta", "Meta", "Shift"])).optional(),
  }),
  spec("type", "Type text into editable element", {
    target,
    element,
    text: z.string(),
    submit: z.boolean().optional().describe("Whether to submit entered text (press Enter after)"),
    slowly: z.boolean().optional().describe("Whether to type one character at a time"),
  }),
  spec("press_key", "Press a key on the keyboard", {
    key: z.string().min(1).describe("Name of the key to press or a character, e.g. ArrowLeft, a"),
  }),
  spec("fill_form", "Fill multiple form fields", {
    fields: z.array(
      z.object({
        target,
        name: z.string(),
        type: z.enum(["textbox", "checkbox", "radio", "combobox", "slider"]),
        value: z.string(),
        element,
      }).strict(),
    ).min(1),
  }),
  spec("select_option", "Select an option in a dropdown", {
    target,
    element,
    values: z.array(z.string()).min(1),
  }),
  spec("hover", "Hover over element on page", { target, element }),
  spec("drag", "Perform drag and drop between two elements", {
    startTarget: target.describe("the dragged element's ref from browser__snapshot"),
    startElement: element,
    endTarget: target.describe("the drop target's ref from browser__snapshot"),
    endElement: element,
  }),
  spec("wait_for", "Wait for text to appear or disappear or a specified time to pass", {
    time: z.number().min(0).max(30).optional().describe("The time to wait in seconds"),
    text: z.string().optional(),
    textGone: z.string().optional(),
    expression: z.string().optional().describe("JavaScript polled until it is truthy"),
  }),
  spec("take_screenshot", "Take a screenshot of the current page (saved as a file)", {
    type: z.enum(["png", "jpeg", "webp"]).optional(),
    fullPage: z.boolean().optional(),
  }, true),
  spec("tabs", "List, create, close, or select a browser tab", {
    action: z.enum(["list", "new", "close", "select"]),
    index: z.number().int().optional().describe("The tab's number"),
    url: z.string().optional(),
  }),
  spec("evaluate", "Evaluate JavaScript expression on page or element", {
    function: z.string().describe("() => { /* code */ } or (element) => { /* code */ }"),
    target: target.optional(),
    element,
  }),
  spec("console_messages", "Returns all console messages", {
    level: z.enum(["error", "warning", "info", "debug"]).optional().describe(
      "Level of the messages to return; each level includes the more severe ones. Default info",
    ),
    all: z.boolean().optional().describe(
      "Return all console messages since the tab opened, not just since the last navigation",
    ),
    filename,
  }, true),
  spec(
    "network_requests",
    "Returns a numbered list of network requests since loading the page. " +
      "Use browser__network_request with the number to get full details.",
    {
      static: z.boolean().optional().describe(
        "Whether to include successful static resources like images, fonts, scripts. Default false",
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
        "1-based index of the request, as printed by browser__network_requests",
      ),
      part: z.enum(["request-headers", "request-body", "response-headers", "response-body"])
        .optional().describe("Return only this part of the request; omit for full details"),
      filename,
    },
    true,
  ),
  spec("click_and_capture", "Click an element and return the responses the click triggered", {
    target,
    element,
    settleMs: z.number().int().min(0).max(30_000).optional().describe(
      "How long to collect responses after the click, in ms (default 1500)",
    ),
  }),
  spec("form_state", "Read each form field's value, validity and control text", {
    target: target.optional().describe("a form or container's ref; omit for every form"),
    element,
  }, true),
  spec("file_upload", "Upload one or multiple files", {
    paths: z.array(z.string()).optional().describe(
      "The absolute paths to the files to upload; omitted cancels the file chooser",
    ),
  }),
  spec("handle_dialog", "Handle a dialog", {
    accept: z.boolean(),
    promptText: z.string().optional(),
  }),
  spec("emulate_media", "Emulate CSS media type and features for the page", {
    colorScheme: nullable(["light", "dark", "no-preference"], "prefers-color-scheme"),
    reducedMotion: nullable(["reduce", "no-preference"], "prefers-reduced-motion"),
    forcedColors: nullable(["active", "none"], "forced-colors"),
    contrast: nullable(["more", "less", "no-preference"], "prefers-contrast"),
    media: nullable(["screen", "print"], "the CSS media type"),
  }),
  spec("resize", "Resize the browser window", {
    width: z.number().int().min(100).max(7680).describe("Width of the page in CSS pixels"),
    height: z.number().int().min(100).max(4320).describe("Height of the page in CSS pixels"),
  }),
  spec("close", "Close the page (this session's current tab)", {}),
  spec(
    "hand_off",
    "Ask the person to do something themselves in this browser tab (sign in, solve a check). " +
      "BLOCKS until they say they are done or decline; the page tools on that tab wait meanwhile.",
    {
      reason: z.string().min(1).describe("what the person should do; shown on the prompt"),
      page: z.string().optional().describe("the page id browser__tabs listed; omit for yours"),
    },
  ),
];
