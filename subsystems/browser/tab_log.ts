import type { CdpBody } from "./cdp.ts";

/** Console levels, most severe first (browser_console_messages' `level`; docs/browser.md). */
export const LEVELS = ["error", "warning", "info", "debug"] as const;
export type Level = typeof LEVELS[number];

/** One console line: the page's console API, an uncaught exception, or a browser log entry. */
export interface ConsoleEntry {
  /** The console call's own kind (`log`, `warning`, `error`, `debug`...), printed as Playwright does. */
  type: string;
  level: Level;
  text: string;
  where: string;
  /** The navigation it arrived under: `all` false shows only the newest one's. */
  nav: number;
}

/** One request of the page, filled in as its Network.* events arrive. */
export interface NetEntry {
  /** 1-based, stable while the page lives: browser_network_request takes it. */
  index: number;
  requestId: string;
  method: string;
  url: string;
  /** CDP's resource type, lower-cased as Playwright's (`document`, `fetch`, `xhr`, `image`...). */
  type: string;
  requestHeaders: Record<string, string>;
  postData: string | null;
  startedAt: number;
  status?: number;
  statusText?: string;
  responseHeaders?: Record<string, string>;
  mimeType?: string;
  failure?: string;
  /** Seconds from request to the last byte (or the failure). */
  endedAt?: number;
  done: boolean;
}

/**
 * The bounds of one tab's buffers. Playwright keeps everything since the page loaded; forge's tabs
 * live as long as a session, so both are bounded and the oldest entry goes first.
 */
export const CONSOLE_BOUND = 1000;
export const NET_BOUND = 500;
/** One console line's text is cut here, so the buffer's worst case stays near 4 MB a tab. */
export const CONSOLE_TEXT = 4000;

const LEVEL_OF: Record<string, Level> = {
  error: "error",
  assert: "error",
  warning: "warning",
  debug: "debug",
  verbose: "debug",
};

/**
 * A tab's console and network record, fed by its session's Runtime.consoleAPICalled,
 * Runtime.exceptionThrown, Log.entryAdded and Network.* events. Cleared on a main-frame
 * navigation as Playwright's tab is: the requests when the new document's request starts (so the
 * document itself is the first row), the console when the new document commits (kept underneath
 * for `all`).
 */
export class TabLog {
  readonly console: ConsoleEntry[] = [];
  net: NetEntry[] = [];
  nav = 0;
  #nextIndex = 1;
  #byId = new Map<string, NetEntry>();
  #captures = new Set<NetEntry[]>();

  constructor(private readonly mainFrame: string) {}

  /** Starts collecting every request that begins from now on, whatever navigation clears. */
  capture(): { entries: NetEntry[]; stop(): void } {
    const entries: NetEntry[] = [];
    this.#captures.add(entries);
    return { entries, stop: () => this.#captures.delete(entries) };
  }

  event(method: string, p: CdpBody): void {
    switch (method) {
      case "Runtime.consoleAPICalled": {
        const args =
          (p.args as { value?: unknown; description?: string; unserializableValue?: string }[]) ??
            [];
        const text = args.map((a) =>
          a.value !== undefined
            ? typeof a.value === "string" ? a.value : JSON.stringify(a.value)
            : a.unserializableValue ?? a.description ?? ""
        ).join(" ");
        const frame = (p.stackTrace as { callFrames?: { url: string; lineNumber: number }[] })
          ?.callFrames?.[0];
        return this.#say(String(p.type), text, frame ? `${frame.url}:${frame.lineNumber}` : "");
      }
      case "Runtime.exceptionThrown": {
        const d = p.exceptionDetails as {
          text?: string;
          url?: string;
          lineNumber?: number;
          exception?: { description?: string };
        };
        return this.#say(
          "error",
          d.exception?.description ?? d.text ?? "an exception",
          d.url ? `${d.url}:${d.lineNumber ?? 0}` : "",
        );
      }
      case "Log.entryAdded": {
        const e = p.entry as { level: string; text: string; url?: string; lineNumber?: number };
        const type = e.level === "verbose" ? "debug" : e.level;
        return this.#say(type, e.text, e.url ? `${e.url}:${e.lineNumber ?? 0}` : "");
      }
      case "Page.frameNavigated":
        if (!(p.frame as { parentId?: string }).parentId) this.nav++;
        return;
      case "Network.requestWillBeSent":
        return this.#request(p);
      case "Network.responseReceived": {
        const e = this.#byId.get(String(p.requestId));
        if (e) this.#respond(e, p.response as CdpBody);
        return;
      }
      case "Network.loadingFinished":
      case "Network.loadingFailed": {
        const e = this.#byId.get(String(p.requestId));
        if (!e) return;
        e.done = true;
        e.endedAt = Number(p.timestamp);
        if (method === "Network.loadingFailed") {
          e.failure = p.canceled ? "net::ERR_ABORTED" : String(p.errorText);
        }
        this.#byId.delete(e.requestId);
      }
    }
  }

  #say(type: string, whole: string, where: string): void {
    const text = whole.length > CONSOLE_TEXT
      ? `${whole.slice(0, CONSOLE_TEXT)}… (${whole.length} characters)`
      : whole;
    this.console.push({ type, level: LEVEL_OF[type] ?? "info", text, where, nav: this.nav });
    if (this.console.length > CONSOLE_BOUND) this.console.shift();
  }

  #request(p: CdpBody): void {
    const req = p.request as {
      url: string;
      method: string;
      headers: Record<string, string>;
      postData?: string;
    };
    const id = String(p.requestId);
    const redirected = p.redirectResponse as CdpBody | undefined;
    const prior = this.#byId.get(id);
    // A redirect reuses the request id: the hop ends with its 3xx, the next hop is a new row.
    if (prior && redirected) {
      this.#respond(prior, redirected);
      prior.done = true;
      prior.endedAt = Number(p.timestamp);
    }
    const navigation = p.type === "Document" && p.frameId === this.mainFrame &&
      p.loaderId === id && !redirected;
    if (navigation) {
      this.net = [];
      this.#nextIndex = 1;
    }
    const entry: NetEntry = {
      index: this.#nextIndex++,
      requestId: id,
      method: req.method,
      url: req.url,
      type: String(p.type ?? "other").toLowerCase(),
      requestHeaders: req.headers,
      postData: req.postData ?? null,
      startedAt: Number(p.timestamp),
      done: false,
    };
    this.#byId.set(id, entry);
    this.net.push(entry);
    if (this.net.length > NET_BOUND) this.#byId.delete(this.net.shift()!.requestId);
    for (const c of this.#captures) c.push(entry);
  }

  #respond(e: NetEntry, r: CdpBody): void {
    e.status = Number(r.status);
    e.statusText = String(r.statusText ?? "");
    e.responseHeaders = r.headers as Record<string, string>;
    e.mimeType = String(r.mimeType ?? "");
  }
}
