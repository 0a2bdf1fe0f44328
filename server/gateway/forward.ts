import type { AccountConfig } from "../config/types.ts";
import { netWords } from "../words.ts";
import {
  credentialFault,
  inboundHeaders,
  outboundHeaders,
  upstreamName,
  upstreamOf,
} from "./upstream.ts";

/** An Anthropic-shaped error body, so the CLI shows forge's words as the API error's message. */
export function apiError(status: number, type: string, message: string): Response {
  return Response.json({ type: "error", error: { type, message } }, {
    status,
    headers: { "x-should-retry": "false" },
  });
}

/** What one forwarded request came back with (the response still streaming to the CLI). */
export interface Forwarded {
  response: Response;
  /** The upstream's status and headers; null when the upstream could not be reached. */
  status: number | null;
  headers: Headers | null;
  /** Why the upstream could not be reached, in words. */
  failure: string | null;
}

/**
 * Sends one CLI request to the account's upstream and hands back the upstream's answer as it
 * streams: `body` is the request's bytes unchanged, the response body is the upstream's stream
 * passed through chunk by chunk (never read into memory), so the first byte and every SSE event
 * reach the CLI as they arrive. The CLI's going away cancels the stream it was reading, and that
 * cancels the upstream's body with it.
 */
export async function forward(
  account: AccountConfig,
  method: string,
  apiPath: string,
  incoming: Headers,
  body: Uint8Array<ArrayBuffer> | null,
): Promise<Forwarded> {
  const fault = credentialFault(account);
  if (fault !== null) return unsent(fault);
  let res: Response;
  try {
    res = await fetch(`${upstreamOf(account)}${apiPath}`, {
      method,
      headers: outboundHeaders(incoming, account),
      body: body && body.byteLength > 0 ? body : undefined,
      redirect: "manual",
    });
  } catch (err) {
    // forge's words only: the engine's message can quote a header's value (the token) and would
    // reach the CLI's transcript and every subscriber's notice.
    return unsent(
      `account ${account.display_name}'s upstream ${upstreamName(account)} could not be reached: ${
        netWords(err)
      }`,
    );
  }
  return {
    response: new Response(res.body, {
      status: res.status,
      statusText: res.statusText,
      headers: inboundHeaders(res.headers),
    }),
    status: res.status,
    headers: res.headers,
    failure: null,
  };
}

/** A request that never reached the upstream: the CLI's 502 says why, and so does the notice. */
function unsent(failure: string): Forwarded {
  return {
    response: apiError(502, "api_error", `forge gateway: ${failure}`),
    status: null,
    headers: null,
    failure,
  };
}
