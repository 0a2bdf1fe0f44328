import { useEffect, useRef } from "preact/hooks";
import { Terminal } from "@xterm/xterm";
import { client, useApp } from "./use.ts";

/**
 * The seat's terminal in xterm.js: attached on mount and detached on unmount, redrawn from each
 * `terminal_view`, fed kind-4 bytes, and typed into (kind 5) only after taking control.
 * spec: terminal_view, terminal_control, terminal_resize, terminal_pause.
 */
export function TerminalPage() {
  const s = useApp();
  const seat = s.seat!;
  const host = useRef<HTMLDivElement>(null);
  const linkOpen = s.link === "open";
  useEffect(() => {
    if (!host.current || !linkOpen) return;
    const c = client();
    const term = new Terminal({
      cols: 100,
      rows: 28,
      convertEol: false,
      fontSize: 13,
    });
    term.open(host.current);
    c.terminal.attach(seat.slot, {
      repaint(screen, cols, rows) {
        term.reset();
        if (term.cols !== cols || term.rows !== rows) term.resize(cols, rows);
        term.write(screen);
      },
      write: (bytes) => term.write(bytes),
    });
    const typed = term.onData((d) => c.terminal.input(d));
    return () => {
      typed.dispose();
      c.terminal.detach();
      term.dispose();
    };
  }, [seat.slot.org, seat.slot.project, seat.slot.label, linkOpen]);
  const t = s.terminal;
  const mine = t !== null && t.controller === t.viewer;
  return (
    <div class="terminal-page" data-testid="terminal">
      <div class="terminal-bar">
        {t === null ? <span class="muted">attaching…</span> : (
          <>
            <span data-testid="terminal-control">
              {mine
                ? "You have control"
                : t.controller === null
                ? "The agent has control"
                : `Viewer ${t.controller} has control`}
            </span>
            <button
              type="button"
              data-testid="take-control"
              onClick={() => client().terminal.control(!mine)}
            >
              {mine ? "Give control back" : "Take control"}
            </button>
            <span class="muted">{t.cols}×{t.rows}</span>
          </>
        )}
      </div>
      <div class="xterm-host" ref={host} data-testid="xterm" />
    </div>
  );
}
