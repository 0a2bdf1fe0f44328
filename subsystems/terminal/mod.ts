import { type Command, type Slot, slotName } from "../../protocol/mod.ts";
import type { Host, Peer } from "../../server/subsystem.ts";
import { TerminalManager } from "./manager.ts";
import { terminalTools } from "./tools.ts";
import { terminalViewing } from "./viewing.ts";

/**
 * The terminal subsystem: wires the transport-independent core (manager, viewers) to the socket.
 * spec: terminal_view .. terminal_close, binary kinds 4 and 5, terminal_changed, session `terminal`.
 */
export function create(host: Host) {
  const area = host.config().areas.terminal ?? {};
  const manager = new TerminalManager({
    terminal: {
      shell: typeof area.shell === "string" ? area.shell : undefined,
      scrollback: typeof area.scrollback === "number" ? area.scrollback : undefined,
    },
    viewers: { log: host.log },
    onChange: (seat, summary) => {
      const [org, project, label] = seat.split("/");
      host.emit({
        name: "terminal_changed",
        fields: { key: { org, project, label }, terminal: summary },
      });
    },
  });
  const viewing = terminalViewing(host, manager);

  return {
    verbs: viewing.verbs,
    commands: {
      // The person is done with (or declines) a terminal__hand_off.
      respond_terminal_hand_off: (
        c: Extract<Command, { name: "respond_terminal_hand_off" }>,
        peer: Peer,
      ) =>
        host.asks.answer(
          c.fields.key,
          "terminal_hand_off",
          c.fields.id,
          peer,
          c.fields.done ? { ending: "answered", answer: true } : { ending: "declined" },
        ),
    },
    subjects: {},
    tools: terminalTools(host, manager),
    binary: viewing.binary,
    sessionFields: (slot: Slot) => ({
      terminal: manager.summary(slotName(slot)),
    }),
    stop: () => manager.closeAll(),
  };
}
