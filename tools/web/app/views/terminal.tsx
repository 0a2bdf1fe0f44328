import { useEffect, useRef } from "preact/hooks";
import { Terminal } from "@xterm/xterm";
import { client, useApp } from "./use.ts";

/** The sizes a person picks from; the PTY and the server's screen model resize together. */
const SIZES = ["80x24", "100x30", "120x36", "160x45"];

/**
 * The seat's terminal in xterm.js: attached on mount and detached on unmount, redrawn from each
 * `terminal_view`, fed kind-4 bytes, and typed into (kind 5) only after taking control; closed
 * by the person's close door, after which a fresh shell waits on a press.
 * spec: terminal_view, terminal_control, terminal_resize, terminal_pause, terminal_close.
 */
export function TerminalPage() {
  const s = useApp();
  const seat = s.seat!;
  const host = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | null>(null);
  const linkOpen = s.link === "open";
  useEffect(() => {
    if (!host.current || !linkOpen) return;
    const c = client();
    const view = new Terminal({ cols: 100, rows: 28, convertEol: false, fontSize: 13 });
    term.current = view;
    view.open(host.current);
    c.terminal.attach(seat.slot, {
      repaint(screen, cols, rows) {
        view.reset();
        if (view.cols !== cols || view.rows !== rows) view.resize(cols, rows);
        view.write(screen);
      },
      write: (bytes) => view.write(bytes),
    });
    const typed = view.onData((d) => c.terminal.input(d));
    return () => {
      typed.dispose();
      c.terminal.detach();
      view.dispose();
      term.current = null;
    };
  }, [seat.slot.org, seat.slot.project, seat.slot.label, linkOpen]);
  const t = s.terminal;
  const mine = t !== null && t.controller === t.viewer;
  const size = t ? `${t.cols}x${t.rows}` : "";
  return (
    <div class="terminal-page" data-testid="terminal">
      <div class="terminal-bar">
        {s.terminalClosed
          ? (
            <>
              <span data-testid="terminal-closed">The shell was closed.</span>
              <button
                type="button"
                data-testid="terminal-reopen"
                onClick={() => client().terminal.reopen()}
              >
                Open a fresh shell
              </button>
            </>
          )
          : t === null
          ? <span class="muted">attaching…</span>
          : (
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
              <select
                data-testid="terminal-size"
                value={size}
                onChange={(e) => {
                  const [cols, rows] = (e.target as HTMLSelectElement).value.split("x").map(Number);
                  term.current?.resize(cols, rows);
                  client().terminal.resize(cols, rows);
                }}
              >
                {!SIZES.includes(size) && <option value={size}>{size.replace("x", "×")}</option>}
                {SIZES.map((v) => <option value={v} key={v}>{v.replace("x", "×")}</option>)}
              </select>
              <button
                type="button"
                data-testid="terminal-close"
                title="Kill the shell and everything it runs"
                onClick={() => client().terminal.close()}
              >
                Close shell
              </button>
            </>
          )}
      </div>
      <div
        class={`xterm-host${s.terminalClosed ? " closed" : ""}`}
        ref={host}
        data-testid="xterm"
      />
    </div>
  );
}
