import type {
  ErrorFrame,
  Greeting,
  NamedSubject,
  ServerMessage,
  SettingsDocument,
  Slot,
  UsageSnapshot,
  Wire,
} from "../../../../protocol/mod.ts";
import type { LinkState } from "./link.ts";
import type { SeatModel } from "../model/seat.ts";
import type { Board, DictateModels, Extensions, Home } from "./narrow.ts";

type Obj = Record<string, Wire>;

/** What a `settings_edit` came back as, by the page's own save id. spec: Editing the config. */
export type SaveAnswer =
  | { kind: "pending" }
  | { kind: "saved" }
  | {
    kind: "refused";
    reason: string;
    message: string;
    key_path: string | null;
  };

/** A terminal this page is attached to. spec: terminal_view, terminal_control. */
export interface TerminalAttach {
  seat: Slot;
  id: number;
  viewer: number;
  controller: number | null;
  cols: number;
  rows: number;
  /** The last byte sequence drawn; a chunk at or below it is already on screen. */
  seq: number;
}

/** Where a take stands, as the composer draws it. */
export type TakePhase = "opening" | "listening" | "transcribing" | "ended";

/** This page's dictation take. spec: dictate_stream; the dictate_* updates go to it alone. */
export interface Take {
  seat: Slot;
  phase: TakePhase;
  /** The server's meter (dictate_level), dBFS; null for no signal. */
  peakDb: number | null;
  /** The take's noise floor (dictate_started), dBFS. */
  floorDb: number | null;
  progress: { done: number; total: number | null } | null;
  /** The landed words, for the composer to take once (then cleared). */
  landed: string | null;
  /** How the take ended when it landed nothing, in words. */
  why: string | null;
  /** The person stopped or cancelled it: a microphone opening late is closed, not used. */
  stopped?: boolean;
}

/** One row of the browser's tab strip. spec: browser_tabs ({number, title, url, owner, ...}). */
export interface BrowserRow {
  number: number;
  title: string;
  url: string;
  state: string;
}

/** A download as the panel offers it: a save link, or the server's words for why not. */
export interface BrowserDownload {
  name: string;
  /** A `blob:` URL holding the bytes, or null when nothing crossed. */
  href: string | null;
  /** Why nothing was saved, in words; null for a download that crossed. */
  error: string | null;
  at: number;
}

/**
 * The seat's browser panel: the strip's rows, the tab this page views and its viewer state.
 * spec: browser_tabs, browser_view, browser_nav_state, browser_surface_failed,
 * browser_file_dialog, browser_download.
 */
export interface BrowserPanel {
  seat: Slot;
  /** Whether the profile's host runs; null until the strip's first answer. */
  up: boolean | null;
  rows: BrowserRow[];
  /** The tab this page asked to view, or null. */
  want: number | null;
  /** The tab's viewer state once the attach landed (browser_view). */
  view:
    | { id: number; tab: number; controller: number | null; viewers: number; viewer: number }
    | null;
  nav: { can_back: boolean; can_forward: boolean } | null;
  /** Why the viewed tab's browser stopped, or the attach was refused. */
  failed: string | null;
  /** The page's file chooser waiting on this (controlling) page. */
  dialog: { id: string; tab: number; multiple: boolean } | null;
  downloads: BrowserDownload[];
}

/**
 * Everything the page draws, in one place. Views read it and re-draw on `changed`; only the
 * connection (client.ts) writes it.
 */
export interface AppState {
  link: LinkState;
  retryInMs: number | null;
  greeting: Greeting | null;
  settings: SettingsDocument | null;
  home: Home | null;
  usage: UsageSnapshot | null;
  board: Board | null;
  extensions: Extensions | null;
  models: DictateModels | null;
  /** The plugin actions' and the models page's last words, newest last. */
  pluginNews: { ok: boolean; text: string; at: number }[];
  /** This page's dictation take, while one runs or its words wait in the composer. */
  take: Take | null;
  /** Whether this page listens to the seat on screen (its own voice switch). */
  voiceOn: boolean;
  /** The speech's last gap in words (a clip that never arrived), while listening. */
  voiceMissed: string | null;
  /** The seat on screen, or null. */
  seat: SeatModel | null;
  /** Why the seat on screen could not be read (a seat nobody started). */
  seatError: string | null;
  /** A keyless subject the server refused to read, with its words (both speech roles off). */
  refusedReads: Partial<Record<Exclude<NamedSubject, "home">, string>>;
  /** The newest error frames, newest last, for the notice strip. */
  errors: (ErrorFrame & { at: number })[];
  saves: Map<number, SaveAnswer>;
  /**
   * The seat on screen's `file_content` answers by `fileKey`; a working-tree read (sha null) is
   * dropped when the tree moves (net/seat_attach.ts), so nothing drawn from it goes stale.
   */
  files: Map<string, Extract<ServerMessage, { kind: "file_content" }>>;
  /** The seat on screen's `commit_diff` answers by sha. */
  commits: Map<string, Extract<ServerMessage, { kind: "commit_diff" }>>;
  document: Extract<ServerMessage, { kind: "document_read" }> | null;
  terminal: TerminalAttach | null;
  /** The attached terminal was closed (spec: terminal_close); a fresh one waits on a press. */
  terminalClosed: boolean;
  browser: BrowserPanel | null;
  /** A `more` is out: the walk waits for its page before asking again (net/history_walk.ts). */
  walking: boolean;
  /** The walk up the history gave up, in words. */
  walkFailed: string | null;
}

export function initialState(): AppState {
  return {
    link: "connecting",
    retryInMs: null,
    greeting: null,
    settings: null,
    home: null,
    usage: null,
    board: null,
    extensions: null,
    models: null,
    pluginNews: [],
    take: null,
    voiceOn: false,
    voiceMissed: null,
    seat: null,
    seatError: null,
    refusedReads: {},
    errors: [],
    saves: new Map(),
    files: new Map(),
    commits: new Map(),
    document: null,
    terminal: null,
    terminalClosed: false,
    browser: null,
    walking: false,
    walkFailed: null,
  };
}

/** Where a `file_content` answer is kept: its path at its revision (null: the working tree). */
export function fileKey(path: string, sha: string | null): string {
  return `${path}@${sha ?? ""}`;
}

/** A tiny observable: views subscribe to `changed` and re-read `state`. */
export class Store {
  state: AppState = initialState();
  #listeners = new Set<() => void>();
  #scheduled = false;

  listen(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Batches a burst of frames into one draw. */
  changed(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      for (const fn of this.#listeners) fn();
    });
  }
}
