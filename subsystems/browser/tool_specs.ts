import { z } from "zod";
import type { ToolHandlers } from "../../server/subsystem.ts";
import { element, filename, modifiers, spec, target } from "./tool_args.ts";
import { PAGE_TOOLS } from "./tool_specs_page.ts";

// The browser family of forge's MCP tools (docs/browser.md): @playwright/mcp's tools under their
// own names (`browser_navigate`: the family keeps an upstream's names, ToolNaming "upstream") with
// their arguments, plus forge's additions, run through Playwright against the Chromium people
// watch. `target` is a ref from the latest browser_snapshot (`e<n>` or `f<frame>e<n>`) or a
// selector; `element` is the human description @playwright/mcp asks for, kept for the record.

/** Navigation, the snapshot and every tool that acts on an element by ref. */
const ELEMENT_TOOLS = [
  spec("navigate", "Navigate to a URL", { url: z.string().describe("The URL to navigate to") }),
  spec("navigate_back", "Go back to the previous page", {}),
  spec(
    "navigate_forward",
    "Go forward to the next page (forge's addition: the counterpart of browser_navigate_back)",
    {},
  ),
  spec(
    "snapshot",
    "Capture accessibility snapshot of the current page, this is better than screenshot",
    {
      target: target.optional().describe("Snapshot only this element (a ref or a selector)"),
      filename,
      depth: z.number().int().min(1).optional().describe("Limit the depth of the snapshot tree"),
      boxes: z.boolean().optional().describe(
        "Include each element's bounding box as [box=x,y,width,height] in CSS pixels, " +
          "viewport-relative",
      ),
    },
    true,
  ),
  spec(
    "find",
    "Search the accessibility snapshot of the current page for text or a regular expression; " +
      "each match is shown under its path from the root. Cheaper than a whole snapshot when " +
      "you need one element and its ref.",
    {
      text: z.string().min(1).optional().describe("case-insensitive substring to find"),
      regex: z.string().min(1).optional().describe("a regular expression written /pattern/flags"),
      filename,
    },
    true,
  ),
  spec("take_screenshot", "Take a screenshot of the current page or of one element", {
    scale: z.enum(["css", "device"]).describe(
      "css: sized in CSS pixels (the usual choice); device: in device pixels",
    ),
    type: z.enum(["png", "jpeg", "webp"]).optional().describe("Image format, default png"),
    filename: z.string().optional().describe("File to save the screenshot to"),
    fullPage: z.boolean().optional().describe("The full scrollable page, not only the viewport"),
    element,
    target: target.optional().describe("Screenshot only this element"),
  }, true),
  spec("click", "Perform click on a web page", {
    target,
    element,
    doubleClick: z.boolean().optional().describe("Double click instead of a single click"),
    button: z.enum(["left", "right", "middle"]).optional().describe("Button, default left"),
    modifiers: modifiers.optional().describe("Modifier keys to press"),
    force: z.boolean().optional().describe("Click through the actionability checks"),
  }),
  spec("type", "Type text into editable element", {
    target,
    element,
    text: z.string().describe("Text to type into the element"),
    submit: z.boolean().optional().describe("Whether to submit entered text (press Enter after)"),
    slowly: z.boolean().optional().describe(
      "Whether to type one character at a time (triggers key handlers); by default the text " +
        "is filled in at once",
    ),
  }),
  spec("press_key", "Press a key on the keyboard", {
    key: z.string().min(1).describe(
      "Name of the key to press or a character to generate, such as ArrowLeft, a or Control+a",
    ),
  }),
  spec("fill_form", "Fill multiple form fields", {
    fields: z.array(
      z.object({
        target,
        name: z.string().describe("Human-readable field name"),
        type: z.enum(["textbox", "checkbox", "radio", "combobox", "slider"]),
        value: z.string().describe(
          "The value; a checkbox takes true or false, a combobox the text of the option",
        ),
        element,
      }).strict(),
    ).min(1).describe("Fields to fill in"),
  }),
  spec("select_option", "Select an option in a dropdown", {
    target,
    element,
    values: z.array(z.string()).min(1).describe("Values (or labels) to select"),
  }),
  spec("hover", "Hover over element on page", { target, element }),
  spec("drag", "Perform drag and drop between two elements", {
    startTarget: target.describe("The dragged element: a ref from browser_snapshot"),
    startElement: element,
    endTarget: target.describe("The drop target: a ref from browser_snapshot"),
    endElement: element,
  }),
  spec(
    "drop",
    "Drop files or MIME-typed data onto an element, as if dragged from outside the page. " +
      'At least one of "paths" or "data" must be provided.',
    {
      target,
      element,
      paths: z.array(z.string()).optional().describe("Absolute paths of files to drop"),
      data: z.record(z.string(), z.string()).optional().describe(
        'Data to drop, MIME type to value (e.g. {"text/plain": "hello"})',
      ),
    },
  ),
  spec("file_upload", "Upload one or multiple files", {
    paths: z.array(z.string()).optional().describe(
      "The absolute paths to the files to upload; omitted cancels the file chooser",
    ),
  }),
] as const;

/** Every tool of the browser family, in @playwright/mcp's order where it has them. */
export const BROWSER_TOOLS = [...ELEMENT_TOOLS, ...PAGE_TOOLS] as const;

/** The family's handlers, each typed by its own tool's schema (server/tool_spec.ts). */
export type BrowserHandlers = ToolHandlers<typeof BROWSER_TOOLS>;
