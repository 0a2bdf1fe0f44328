import { useEffect, useRef, useState } from "preact/hooks";
import { Terminal } from "@xterm/xterm";
import { fitCells } from "./terminal_fit.ts";
import { client, useApp } from "./use.ts";

/** The sizes a person picks from; the PTY and the server's screen model resize together. */
const SIZES = ["80x24", "100x30", "120x36", "160x45"];
/** The choice that sizes the terminal to the screen it is drawn on (a phone's 390 px). */
const FIT = "fit";

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
  const [fitting, setFitting] = useState(false);
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
      resize: (cols, rows) => view.resize(cols, rows),
    });
    const typed = view.onData((d) => c.terminal.input(d));
    return () => {
      typed.dispose();
      c.terminal.detach();
      view.dispose();
      term.current = null;
    };
  }, [seat.slot.org, seat.slot.project, seat.slot.label, linkOpen]);
  // While the person chose to fit, a turned phone or a resized window fits again.
  useEffect(() => {
    if (!fitting) return;
    const refit = () => fitScreen(host.current, term.current);
    addEventListener("resize", refit);
    return () => removeEventListener("resize", refit);
  }, [fitting]);
  const t = s.terminal;
  const mine = t !== null && t.controller === t.viewer;
  // The size the server says the terminal has (spec: terminal_changed), the attach's before it.
  const told = seat.terminal;
  const cols = told?.cols ?? t?.cols;
  const rows = told?.rows ?? t?.rows;
  const size = t ? `${cols}x${rows}` : "";
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
                value={fitting ? FIT : size}
                onChange={(e) => {
                  const picked = (e.target as HTMLSelectElement).value;
                  setFitting(picked === FIT);
                  if (picked === FIT) return fitScreen(host.current, term.current);
                  const [cols, rows] = picked.split("x").map(Number);
                  term.current?.resize(cols, rows);
                  client().terminal.resize(cols, rows);
                }}
              >
                <option value={FIT}>Fit screen</option>
                {!fitting && !SIZES.includes(size) && (
                  <option value={size}>{size.replace("x", "×")}</option>
                )}
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

/**
 * Sizes the terminal to the room it has: the page's width and the screen's height below the
 * view's top, in cells measured off the drawn view (its screen's pixels over its cols and rows),
 * then tells the server, whose PTY and screen model take the size (spec: terminal_resize).
 */
function fitScreen(el: HTMLElement | null, view: Terminal | null): void {
  const drawn = el?.querySelector(".xterm-screen")?.getBoundingClientRect();
  const page = el?.parentElement;
  if (!el || !view || !drawn || !page) return;
  const style = getComputedStyle(el);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const top = el.getBoundingClientRect().top + scrollY;
  const fit = fitCells(
    { width: page.clientWidth - padX, height: innerHeight - top - padY },
    { width: drawn.width / view.cols, height: drawn.height / view.rows },
  );
  if (!fit) return;
  view.resize(fit.cols, fit.rows);
  client().terminal.resize(fit.cols, fit.rows);
}
