import type { Logger } from "./log.ts";

/**
 * forge's own words on the wire: a refusal, a tool result or a frame says
 * what failed in forge's sentence, never the engine's or a library's (`Cannot read properties of
 * undefined`, `No such file or directory (os error 2)`, a schema library's `Invalid input`). The
 * engine's message goes to the log with its cause.
 */

/**
 * Whether an error's message is the engine's or a library's rather than a sentence forge wrote:
 * the JavaScript built-in errors, Deno's I/O errors, DOM exceptions, anything carrying a system
 * or library `code`, a schema library's error, and anything that is not an Error at all.
 */
export function isEngineError(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  if (
    err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError ||
    err instanceof SyntaxError || err instanceof EvalError || err instanceof URIError ||
    err instanceof AggregateError || err instanceof DOMException
  ) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") return true;
  if (Object.values(Deno.errors).some((E) => err instanceof E)) return true;
  return err.name === "ZodError" || err.name === "AbortError" || err.name === "TimeoutError";
}

/**
 * An error's words for a person: forge's own sentence as it stands; an engine's or a library's
 * message is logged under `event` with its cause and replaced by `fallback`, which says what
 * failed in forge's words.
 */
export function ownWords(
  err: unknown,
  o: { log: Logger; event: string; fallback: string; fields?: Record<string, unknown> },
): string {
  if (!isEngineError(err)) return (err as Error).message;
  o.log.warn(o.event, { ...o.fields, error: err });
  return o.fallback;
}

/** Why a program could not be started, in forge's words (the spawn's errno). */
export function spawnWords(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (code === "ENOENT" || err instanceof Deno.errors.NotFound) {
    return "the program (or the folder it runs in) is not there";
  }
  if (code === "EACCES" || code === "EPERM" || err instanceof Deno.errors.PermissionDenied) {
    return "forge is not allowed to run it";
  }
  if (err instanceof Deno.errors.NotCapable) return "forge's permissions do not let it run that";
  return "the operating system would not start it";
}

/**
 * Why a request over the network failed, in forge's words (fetch's own message kept out). Read
 * from the error and its causes: Deno's fetch says only `fetch failed` and puts the socket's
 * reason (`Connection refused`, `dns error`) on its cause.
 */
export function netWords(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && depth < 4; depth++) {
    parts.push(e instanceof Error ? `${e.name} ${e.message}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  const text = parts.join(" ");
  if (/refused/i.test(text)) return "the connection was refused";
  if (/dns|lookup|resolve|name or service not known/i.test(text)) {
    return "its host name did not resolve";
  }
  if (/timed? ?out|TimeoutError|deadline/i.test(text)) return "it did not answer in time";
  if (/certificate|tls|ssl/i.test(text)) return "its TLS certificate was not accepted";
  if (/reset|broken pipe|closed|aborted/i.test(text)) return "the connection was cut";
  if (/NotCapable|--allow-net|Requires net access/i.test(text)) {
    return "forge's permissions do not reach that host";
  }
  return "the request could not be sent";
}
