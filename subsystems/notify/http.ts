/**
 * One HTTP request to a push server, with every way it can fail said in forge's words: the
 * server by its host and port only (an ntfy topic or a push endpoint in a URL is a capability,
 * so neither is ever written down), never an engine's message.
 */
import { netWords } from "../../server/words.ts";

export class SendFailure extends Error {
  constructor(
    why: string,
    /** Retrying cannot help (a refused token, a subscription gone): the push is not retried. */
    readonly final = false,
    /** The HTTP status the server answered, or null when it never answered. */
    readonly status: number | null = null,
    /** The target is gone (a dropped subscription), not the channel failing: it stays ok. */
    readonly gone = false,
  ) {
    super(why);
    this.name = "SendFailure";
  }
}

/**
 * `host:port` of a URL, the port made explicit: what a log and a reason may name, and what the
 * launcher grants (the keys' checks refuse a URL this cannot read, manifest.ts).
 */
export function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    // Not a URL (the loader refused it already): said as such, never the parser's words.
    return "(no valid URL)";
  }
}

/**
 * Sends the request; resolves with the response when the server answered 2xx, else throws a
 * SendFailure naming `who` (`ntfy at host:port`). 429 and 5xx are worth a retry, the other
 * refusals are not. `signal` is the attempt's deadline (the sender's clock aborts it).
 */
export async function post(
  who: string,
  url: string,
  init: { method?: string; headers: Record<string, string>; body: string | Uint8Array },
  signal: AbortSignal,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? "POST",
      headers: init.headers,
      body: init.body as BodyInit,
      signal,
    });
  } catch (err) {
    if (signal.aborted && signal.reason instanceof SendFailure) throw signal.reason;
    throw new SendFailure(`${who}: ${networkWords(err)}`);
  }
  if (res.ok) return res;
  const detail = await res.text().then(serverWords, () => "");
  const status = `answered HTTP ${res.status}${detail ? ` (${detail})` : ""}`;
  const retry = res.status === 429 || res.status >= 500;
  const words = res.status === 401 || res.status === 403
    ? `refused the credential: ${status}`
    : status;
  throw new SendFailure(`${who} ${words}`, !retry, res.status);
}

/** A refusal's own short message (ntfy's `error`, Gotify's `errorDescription`), at most 120. */
function serverWords(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const said = body.errorDescription ?? body.error ?? body.message;
    return typeof said === "string" ? said.slice(0, 120) : "";
  } catch {
    // A body that is not JSON adds no words of the server's own: the status says enough.
    return "";
  }
}

/** Why a request never got an answer, in words (forge's own `netWords`, which reads fetch's
 * cause), with the way out of the one refusal a restart mends. */
function networkWords(err: unknown): string {
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return "forge may not reach it: its host was not in the config when forge launched (restart forge)";
  }
  return netWords(err);
}
