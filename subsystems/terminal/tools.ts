/**
 * The terminal family: the agent's door to the seat's own terminal, the one people
 * view. Run a command and read what it printed (bounded, after a settle time), read the screen,
 * send keys, and hand the terminal to the person (a `terminal_hand_off` ask; the summary's
 * `held` says a hand-off holds it). spec: terminal_control - while a person holds the control,
 * or a hand-off is parked, every tool is refused with a sentence saying why.
 */
import { z } from "zod";
import { slotName } from "../../protocol/mod.ts";
import {
  defineTool,
  type Host,
  type ToolCall,
  type ToolHandler,
  toolHandlers,
  type ToolResult,
} from "../../server/subsystem.ts";
import type { SeatTerminal, TerminalManager } from "./manager.ts";

/** The most output a run returns: its tail, so the end of a long print is what the agent reads. */
export const RUN_OUTPUT_CAP = 16_000;

const roles = ["lead", "worker"] as const;
export const TERMINAL_TOOLS = [
  defineTool({
    name: "terminal__run",
    family: "terminal",
    description:
      "Run a shell command in this seat's terminal - the one the person sees - and return what " +
      "it printed once output has been quiet for `settle_ms` (at most `timeout_ms`). The output " +
      `is bounded to its last ${RUN_OUTPUT_CAP} characters. Refused while the person holds the ` +
      "terminal or a hand-off is parked.",
    input: z.object({
      command: z.string().min(1).describe("the command line, as typed"),
      settle_ms: z.number().int().min(50).max(30_000).default(1000),
      timeout_ms: z.number().int().min(100).max(600_000).default(30_000),
    }).strict(),
    roles,
  }),
  defineTool({
    name: "terminal__read",
    family: "terminal",
    description: "Read this seat's terminal screen as plain text (the last `lines` lines).",
    input: z.object({ lines: z.number().int().min(1).max(1000).optional() }).strict(),
    roles,
    readOnly: true,
  }),
  defineTool({
    name: "terminal__send_keys",
    family: "terminal",
    description:
      "Type raw keys into this seat's terminal (\\r is Enter, \\u0003 is Ctrl-C) and return the " +
      "screen after a short settle.",
    input: z.object({ keys: z.string().min(1) }).strict(),
    roles,
  }),
  defineTool({
    name: "terminal__hand_off",
    family: "terminal",
    description:
      "Ask the person to do something in this seat's terminal themselves (type a password, " +
      "answer a prompt) and wait until they say they are done - possibly hours. Say what in " +
      "`reason`. The answer is done or declined, with the screen as it is then.",
    input: z.object({ reason: z.string().min(1) }).strict(),
    roles,
  }),
] as const;

/** The terminal tools over the seats' terminals. */
export function terminalTools(host: Host, manager: TerminalManager): Record<string, ToolHandler> {
  /** The seat's terminal (opened on first use), or the sentence refusing the tool. */
  const door = async (tool: string, call: ToolCall): Promise<SeatTerminal | ToolResult> => {
    const seat = slotName(call.seat.slot);
    const opened = await manager.open(seat, call.seat.cwd);
    if (!opened.ok) return { text: `${tool}: ${opened.why}`, isError: true };
    const why = opened.viewers.controller !== null
      ? "a person holds this terminal's control (terminal_control); the terminal tools are refused until they give it back"
      : manager.summary(seat)?.held
      ? "a hand-off holds this terminal: the person is using it, and the terminal tools are refused until it ends"
      : null;
    return why ? { text: `${tool}: ${why}.`, isError: true } : opened;
  };
  const refused = (t: SeatTerminal | ToolResult): t is ToolResult => "text" in t;

  return toolHandlers(TERMINAL_TOOLS)({
    terminal__run: async ({ command, settle_ms, timeout_ms }, call) => {
      const t = await door("terminal__run", call);
      if (refused(t)) return t;
      const output = await collect(
        t,
        settle_ms,
        timeout_ms,
        call.signal,
        () => t.terminal.write(`${command}\r`),
      );
      return { text: output.text || "(no output)" };
    },
    terminal__read: async (input, call) => {
      const t = await door("terminal__read", call);
      if (refused(t)) return t;
      return {
        text: (await t.terminal.text(input.lines)) ||
          "(the screen is empty)",
      };
    },
    terminal__send_keys: async (input, call) => {
      const t = await door("terminal__send_keys", call);
      if (refused(t)) return t;
      await collect(
        t,
        300,
        5_000,
        call.signal,
        () => t.terminal.write(input.keys),
      );
      return { text: (await t.terminal.text()) || "(the screen is empty)" };
    },
    terminal__hand_off: async (input, call) => {
      const t = await door("terminal__hand_off", call);
      if (refused(t)) return t;
      const seat = slotName(call.seat.slot);
      manager.setHeld(seat, true);
      try {
        const parked = host.asks.park<boolean>(call.seat.slot, {
          kind: "terminal_hand_off",
          request: { reason: input.reason, terminal: t.terminal.id },
          signal: call.signal,
        });
        const outcome = await parked.outcome;
        const screen = (await t.terminal.text()) || "(the screen is empty)";
        if (outcome.ending === "answered") {
          return { text: `The person is done in the terminal. Its screen now:\n${screen}` };
        }
        const why = outcome.ending === "declined"
          ? "the person declined the hand-off"
          : `the hand-off ended without an answer (${outcome.ending.replace("_", " ")})`;
        return { text: `${why}. The terminal's screen:\n${screen}`, isError: true };
      } finally {
        manager.setHeld(seat, false);
      }
    },
  });
}

/**
 * Starts `act`, then gathers the terminal's output until it has been quiet for `settleMs`, or
 * `timeoutMs` passed, or the call was cancelled; returns it as plain text, bounded to its tail.
 */
function collect(
  t: SeatTerminal,
  settleMs: number,
  timeoutMs: number,
  signal: AbortSignal,
  act: () => void,
): Promise<{ text: string }> {
  const decoder = new TextDecoder();
  let raw = "";
  const { promise, resolve } = Promise.withResolvers<void>();
  let quiet = setTimeout(resolve, settleMs);
  const cap = setTimeout(resolve, timeoutMs);
  const off = t.terminal.onOutput((chunk) => {
    raw = (raw + decoder.decode(chunk.bytes, { stream: true })).slice(-4 * RUN_OUTPUT_CAP);
    clearTimeout(quiet);
    quiet = setTimeout(resolve, settleMs);
  });
  signal.addEventListener("abort", () => resolve(), { once: true });
  act();
  return promise.then(() => {
    off();
    clearTimeout(quiet);
    clearTimeout(cap);
    return { text: plain(raw).slice(-RUN_OUTPUT_CAP) };
  });
}

/** Terminal output without its escape sequences and carriage returns. */
export function plain(raw: string): string {
  return raw
    // deno-lint-ignore no-control-regex
    .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "")
    // deno-lint-ignore no-control-regex
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "")
    // deno-lint-ignore no-control-regex
    .replace(/\x1b[@-Z\\-_]/g, "")
    .replace(/\r+\n/g, "\n")
    .replace(/\r/g, "");
}
