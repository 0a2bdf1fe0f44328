import { readWords } from "../state/words.ts";
import { netWords } from "../words.ts";
import type { AccountConfig } from "../config/types.ts";
import { accountConfigDir } from "./login.ts";
import { accountKind } from "./pool.ts";
import { credentialFault, credentialHeaders, upstreamName, upstreamOf } from "./upstream.ts";

/** How long a probe may take before it counts as failed. */
export const PROBE_TIMEOUT_MS = 10_000;

/** A probe's answer: ready (with the response's headers, for usage), or failed in words. */
export type ProbeResult =
  | { ok: true; headers: Headers | null }
  | { ok: false; why: string };

/**
 * Probes one account. A `token` account asks its upstream's `GET /v1/models` with its credential:
 * a 2xx is ready, a 401/403 is a refused credential, anything else is named. A `config_dir`
 * account's credential is the CLI's own, which forge never reads: its probe checks that the
 * directory is there.
 */
export async function probeAccount(
  a: AccountConfig,
  /** The config dir of an account that names none. */
  claudeDir: string,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  if (accountKind(a) === "config_dir") {
    const dir = accountConfigDir(a, claudeDir);
    try {
      const info = await Deno.stat(dir);
      return info.isDirectory
        ? { ok: true, headers: null }
        : { ok: false, why: `config_dir ${dir} is not a directory` };
    } catch (err) {
      return {
        ok: false,
        why: err instanceof Deno.errors.NotFound
          ? `config_dir ${dir} does not exist`
          : `config_dir ${dir} cannot be read: ${readWords(err)}`,
      };
    }
  }
  const upstream = upstreamName(a);
  const fault = credentialFault(a);
  if (fault !== null) return { ok: false, why: fault };
  let res: Response;
  // The headers are built inside the try: whatever fails there is a failed probe in forge's
  // words (netWords), never the engine's message, which can quote a header's value.
  try {
    const headers = new Headers({ "anthropic-version": "2023-06-01" });
    for (const [k, v] of Object.entries(credentialHeaders(a))) headers.set(k, v);
    res = await fetch(`${upstreamOf(a)}/v1/models`, {
      headers,
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)])
        : AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch (err) {
    const why = (err as Error).name === "TimeoutError"
      ? `no answer in ${PROBE_TIMEOUT_MS / 1000} s`
      : netWords(err);
    return { ok: false, why: `${upstream} could not be reached: ${why}` };
  }
  await res.body?.cancel().catch(() => {/* the body is not read: a stream already over is fine */});
  if (res.ok) return { ok: true, headers: res.headers };
  if (res.status === 401 || res.status === 403) {
    return { ok: false, why: `${upstream} refused the token (HTTP ${res.status})` };
  }
  return { ok: false, why: `${upstream} answered the probe with HTTP ${res.status}` };
}
