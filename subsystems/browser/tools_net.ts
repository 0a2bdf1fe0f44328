import { drive, type Page, PageError } from "./page_ops.ts";
import { modalState, type OnPage, output } from "./page_tool.ts";
import type { BrowserHandlers } from "./tool_specs.ts";
import { LEVELS, type NetEntry } from "./tab_log.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Playwright hides successful non-fetch requests unless `static` is set. */
const isFetch = (e: NetEntry) => e.type === "fetch" || e.type === "xhr";
/** A body longer than this is cut in click_and_capture's answer (network_request gives it whole). */
const CAPTURE_BODY = 4000;
/** How long click_and_capture waits, past settleMs, for the requests it saw to finish. */
const FINISH_MS = 10_000;

/** `[GET] url => [200] OK`, as Playwright's renderRequestLine. */
export function requestLine(e: NetEntry): string {
  let line = `[${e.method.toUpperCase()}] ${e.url}`;
  if (e.status !== undefined) line += ` => [${e.status}] ${e.statusText ?? ""}`.trimEnd();
  else if (e.failure) line += ` => [FAILED] ${e.failure}`;
  return line;
}

const headers = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {}).map(([k, v]) => `${k}: ${v}`);

/** A response's body as text; null when it has none (a 204, a failure) or Chromium let it go. */
async function bodyOf(p: Page, e: NetEntry): Promise<{ text: string; binary: boolean } | null> {
  if (e.status === undefined || e.status === 204 || e.status === 304 || e.status < 200) {
    return null;
  }
  const r = await p.cdp.send("Network.getResponseBody", { requestId: e.requestId }, p.tab.session)
    .catch(() => null); // evicted from Chromium's buffer: the body is no longer there
  if (!r) return null;
  if (!r.base64Encoded) return { text: String(r.body), binary: false };
  const bin = atob(String(r.body));
  const textual = /^(text\/|application\/(json|javascript|xml|.*\+json|.*\+xml))/.test(
    e.mimeType ?? "",
  );
  if (!textual) return { text: `(binary, ${bin.length} bytes)`, binary: true };
  return {
    text: new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))),
    binary: false,
  };
}

/** The console and network tools, on the tab's TabLog. */
export function netTools(
  onPage: OnPage,
): Pick<
  BrowserHandlers,
  | "browser_console_messages"
  | "browser_network_requests"
  | "browser_network_request"
  | "browser_click_and_capture"
> {
  return {
    browser_console_messages: onPage((p, i, call) => {
      const level = i.level;
      const rank = LEVELS.indexOf(level);
      const log = p.tab.log;
      const shown = log.console.filter((m) =>
        LEVELS.indexOf(m.level) <= rank && (i.all === true || m.nav === log.nav)
      );
      const lines = shown.map((m) =>
        `[${m.type.toUpperCase()}] ${m.text}${m.where ? ` @ ${m.where}` : ""}`
      );
      const scope = i.all === true ? "since the tab opened" : "since the page loaded";
      const text = lines.length
        ? lines.join("\n")
        : `no console messages at ${level} or more severe ${scope}`;
      return output(text, i, call);
    }),
    browser_network_requests: onPage((p, i, call) => {
      let filter: RegExp | null = null;
      if (typeof i.filter === "string") {
        try {
          filter = new RegExp(i.filter);
        } catch (err) {
          throw new PageError(
            `filter ${JSON.stringify(i.filter)} is not a valid regular expression: ${
              (err as Error).message
            }`,
          );
        }
      }
      let hidden = 0;
      const lines: string[] = [];
      for (const e of p.tab.log.net) {
        const ok = !e.failure && e.status !== undefined && e.status < 400;
        if (i.static !== true && !isFetch(e) && ok) {
          hidden++;
          continue;
        }
        if (filter && !filter.test(e.url)) continue;
        lines.push(`${e.index}. ${requestLine(e)}`);
      }
      if (hidden > 0) {
        lines.push(
          `\nNote: ${hidden} static request${hidden === 1 ? "" : "s"} not shown, ` +
            `run with "static" to see ${hidden === 1 ? "it" : "them"}.`,
        );
      }
      return output(lines.length ? lines.join("\n") : "no requests since the page loaded", i, call);
    }),
    browser_network_request: onPage(async (p, i, call) => {
      const net = p.tab.log.net;
      const e = net.find((e) => e.index === i.index);
      if (!e) {
        throw new PageError(
          net.length
            ? `request #${i.index} is not in this page's log (it holds #${net[0].index}..#${
              net.at(-1)!.index
            }); see browser_network_requests`
            : `request #${i.index} is not in this page's log: no request since the page loaded`,
        );
      }
      const part = i.part;
      let text: string;
      if (part === "request-headers") text = headers(e.requestHeaders).join("\n");
      else if (part === "request-body") text = e.postData ?? "(the request has no body)";
      else if (part === "response-headers") {
        text = e.responseHeaders ? headers(e.responseHeaders).join("\n") : "(no response yet)";
      } else if (part === "response-body") {
        text = (await bodyOf(p, e))?.text ?? "(no response body is available)";
      } else {
        const l = [`#${e.index} [${e.method.toUpperCase()}] ${e.url}`, "", "  General"];
        if (e.status !== undefined) l.push(`    status:    [${e.status}] ${e.statusText}`);
        else if (e.failure) l.push(`    status:    [FAILED] ${e.failure}`);
        else l.push("    status:    (pending)");
        if (e.endedAt !== undefined) {
          l.push(`    duration:  ${Math.round((e.endedAt - e.startedAt) * 1000)}ms`);
        }
        l.push(`    type:      ${e.type}`);
        if (e.mimeType) l.push(`    mimeType:  ${e.mimeType}`);
        l.push("", "  Request headers", ...headers(e.requestHeaders).map((h) => `    ${h}`));
        if (e.responseHeaders) {
          l.push("", "  Response headers", ...headers(e.responseHeaders).map((h) => `    ${h}`));
        }
        const hints = [];
        if (e.postData !== null) hints.push("request-body");
        if (e.status !== undefined && e.status !== 204 && e.status !== 304) {
          hints.push("response-body");
        }
        for (const h of hints) {
          l.push(
            "",
            `Call browser_network_request with part="${h}" to read the ${h.replace("-", " ")}.`,
          );
        }
        text = l.join("\n");
      }
      return await output(text, i, call);
    }),
    browser_click_and_capture: onPage(async (p, i) => {
      const settleMs = typeof i.settleMs === "number" ? i.settleMs : 1500;
      const cap = p.tab.log.capture();
      try {
        await p.tab.inputUnlessDialog(drive(p, "click", { target: i.target }));
        await sleep(settleMs);
        // The requests seen in the window get their ends (bounded; a hung one shows pending).
        const until = performance.now() + FINISH_MS;
        while (cap.entries.some((e) => !e.done) && performance.now() < until && !p.tab.dialog) {
          await sleep(50);
        }
      } finally {
        cap.stop();
      }
      const lines = [
        `Clicked ${i.element ?? i.target}`,
        `- ${cap.entries.length} response(s) the click triggered within ${settleMs} ms:`,
      ];
      for (const [n, e] of cap.entries.entries()) {
        lines.push(`${n + 1}. ${requestLine(e)}${e.done ? "" : " (still pending)"}`);
        const body = e.done ? await bodyOf(p, e) : null;
        if (!body) continue;
        // What a click is usually asked about: the API's answers and the page it loaded. A
        // script or stylesheet it pulled in is only sized.
        if (body.binary || !(isFetch(e) || e.type === "document")) {
          lines.push(`   body: ${body.binary ? body.text : `${body.text.length} characters`}`);
        } else if (body.text.length > CAPTURE_BODY) {
          lines.push(
            `   body: ${body.text.slice(0, CAPTURE_BODY)}… (${body.text.length} characters; ` +
              "browser_network_request gives it whole)",
          );
        } else lines.push(`   body: ${body.text}`);
      }
      if (p.tab.dialog) lines.push(modalState(p));
      else lines.push("- The page may have changed: browser_snapshot or browser_find for refs");
      return lines.join("\n");
    }),
  };
}
