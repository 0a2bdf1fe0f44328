import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { BROWSER_TOOLS } from "./tool_specs.ts";

/**
 * The browser host: Chromium viewed by clients over CDP and driven by the agents' browser tools
 * through Playwright. spec: browser_view .. browser_tabs.
 */
export const browserManifest = defineSubsystem({
  id: "browser",
  note: "the browser the server hosts for its seats",
  switch: "browser.enabled",
  area: {
    id: "browser",
    name: "browser",
    note: "the hosted browser and its idle clocks",
    keys: [
      key.bool("browser.enabled", true, "restart", "host a browser for the seats"),
      key.string(
        "browser.chromium",
        null,
        "restart",
        "the Chromium binary; unset looks for chromium on PATH",
      ),
      key.number(
        "browser.idle_close_secs",
        900,
        "live",
        "an unused profile's host closes after this long",
        [10, 86400],
      ),
      key.bool(
        "browser.run_code_unsafe",
        false,
        "live",
        "offer the agents browser_run_code_unsafe: a Playwright snippet run in forge's own " +
          "process, as able as forge itself (RCE-equivalent)",
      ),
    ],
  },
  verbs: [
    "browser_view",
    "browser_view_page",
    "browser_detach",
    "browser_resize",
    "browser_input",
    "browser_control",
    "browser_nav",
    "browser_file_answer",
    "browser_tabs",
  ],
  commands: ["respond_browser_hand_off", "open_url"],
  subjects: [],
  binary: [],
  tools: BROWSER_TOOLS,
  load: () => import("./mod.ts"),
});
