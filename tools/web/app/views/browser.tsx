import { useEffect, useRef, useState } from "preact/hooks";
import type { BrowserPanel } from "../net/store.ts";
import { Downloads, FileChooser } from "./browser_parts.tsx";
import { Surface } from "./browser_surface.ts";
import { client, useApp } from "./use.ts";

/**
 * The seat's browser: the profile's tabs as a strip, the viewed tab's frames on a canvas, and the
 * takeover bar (who drives, take/release, back/forward). Attached on mount and detached on
 * unmount; the person's mouse and keys reach the page only while this page holds the role.
 * spec: browser_tabs, browser_view, browser_control, browser_input, browser_resize, browser_nav,
 * browser_file_answer, browser_download, browser_surface_failed; Binary messages > 1.
 */
export function BrowserPage() {
  const s = useApp();
  const seat = s.seat!;
  const canvas = useRef<HTMLCanvasElement>(null);
  const surface = useRef<Surface | null>(null);
  const linkOpen = s.link === "open";
  const slot = [seat.slot.org, seat.slot.project, seat.slot.label];
  useEffect(() => {
    const wire = client().browser;
    const view = new Surface(
      canvas.current!,
      (w, h, scale) => wire.resize(w, h, scale),
      (g) => wire.input(g),
    );
    surface.current = view;
    return () => {
      wire.close();
      view.dispose();
      surface.current = null;
    };
  }, slot);
  // A socket that came back asks the strip again and re-attaches the tab it viewed; the list of
  // downloads outlives the drop.
  useEffect(() => {
    if (linkOpen && surface.current) client().browser.open(seat.slot, surface.current);
  }, [...slot, linkOpen]);
  const p = s.browser;
  const v = p?.view ?? null;
  const mine = v !== null && v.controller === v.viewer;
  // A take lays the page out to this canvas at once (the controller owns the layout).
  useEffect(() => {
    const size = surface.current?.size();
    if (mine && size) client().browser.resize(size.width, size.height, size.scale);
  }, [mine]);
  return (
    <div class="browser-page" data-testid="browser">
      {p && <Strip p={p} />}
      <div class="terminal-bar browser-bar">
        {v === null ? <span class="muted">{p?.want != null ? "attaching…" : "no tab"}</span> : (
          <>
            <button
              type="button"
              title="Back"
              data-testid="browser-back"
              disabled={!mine || !p?.nav?.can_back}
              onClick={() => client().browser.nav(true)}
            >
              ←
            </button>
            <button
              type="button"
              title="Forward"
              data-testid="browser-forward"
              disabled={!mine || !p?.nav?.can_forward}
              onClick={() => client().browser.nav(false)}
            >
              →
            </button>
            <span data-testid="browser-control">
              {mine
                ? "You have control"
                : v.controller === null
                ? "The agent has control"
                : `Viewer ${v.controller} has control`}
            </span>
            <button
              type="button"
              data-testid="browser-take"
              onClick={() => client().browser.control(!mine)}
            >
              {mine ? "Release control" : "Take control"}
            </button>
            <span class="muted" data-testid="browser-viewers">
              {v.viewers} viewer{v.viewers === 1 ? "" : "s"}
            </span>
          </>
        )}
      </div>
      {p?.failed && <div class="notice" role="alert" data-testid="browser-failed">{p.failed}</div>}
      {p?.dialog && <FileChooser dialog={p.dialog} />}
      {p && p.downloads.length > 0 && <Downloads list={p.downloads} />}
      <canvas
        class={`browser-surface${mine ? " mine" : ""}`}
        ref={canvas}
        tabIndex={0}
        data-testid="browser-canvas"
      />
    </div>
  );
}

/** The profile's tabs: pick one to view, or open a URL in a new one. */
function Strip(props: { p: BrowserPanel }) {
  const { p } = props;
  const [url, setUrl] = useState("");
  return (
    <div class="browser-strip" data-testid="browser-tabs">
      {p.rows.map((r) => (
        <button
          type="button"
          key={r.number}
          class={`browser-tab${r.number === p.want ? " on" : ""}`}
          title={r.url}
          data-testid={`browser-tab-${r.number}`}
          onClick={() => client().browser.view(r.number)}
        >
          {r.title || r.url || `tab ${r.number}`}
          {r.state === "held" && <span class="mark-chip">waiting on you</span>}
        </button>
      ))}
      {p.up === false && p.rows.length === 0 && (
        <>
          <span class="muted">The browser is not running.</span>
          <button type="button" data-testid="browser-start" onClick={() => client().browser.view()}>
            Start it
          </button>
        </>
      )}
      <form
        class="browser-open"
        onSubmit={(e) => {
          e.preventDefault();
          if (!url.trim()) return;
          client().browser.openUrl(url.trim());
          setUrl("");
        }}
      >
        <input
          data-testid="browser-url"
          placeholder="https://…"
          value={url}
          onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
        />
        <button type="submit" data-testid="browser-open">Open</button>
      </form>
    </div>
  );
}
