import { key } from "../../server/config/spec.ts";
import { defineSubsystem } from "../../server/subsystem.ts";
import { TERMINAL_TOOLS } from "./tools.ts";

/** A seat's shell, shared by every viewer. spec: terminal_view .. terminal_close, kinds 4 and 5. */
export const terminalManifest = defineSubsystem({
  id: "terminal",
  note: "a seat's terminal: a PTY shared by every viewer, one controller at a time",
  switch: "terminal.enabled",
  area: {
    id: "terminal",
    name: "terminal",
    note: "the seats' terminals",
    keys: [
      key.bool("terminal.enabled", true, "restart", "serve seats' terminals"),
      key.string(
        "terminal.shell",
        null,
        "next_session",
        "the shell a terminal runs; unset uses $SHELL, else /bin/bash",
      ),
      key.number(
        "terminal.scrollback",
        1000,
        "next_session",
        "lines the server's screen model keeps",
        [0, 100000],
      ),
    ],
  },
  verbs: [
    "terminal_view",
    "terminal_detach",
    "terminal_resize",
    "terminal_pause",
    "terminal_control",
    "terminal_close",
  ],
  commands: ["respond_terminal_hand_off"],
  subjects: [],
  binary: [5],
  tools: TERMINAL_TOOLS,
  load: () => import("./mod.ts"),
});
