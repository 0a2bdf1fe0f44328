/**
 * The headers the web program sends with every file: what the page may load (a Content Security
 * Policy) and how long a browser may keep each file.
 */

/**
 * The page's policy. Scripts, styles, fonts and the worker come from this server only; the
 * microphone's AudioWorklet is a `blob:` module the page makes itself. Images are this server's,
 * or `data:`/`blob:` the page made from bytes the socket carried (browser frames, downloads):
 * never an address a model or agent named, so drawing a turn fetches nothing. The page speaks
 * HTTP to this server alone and sockets to the forges it holds - any `ws:`/`wss:` address,
 * because a person adds forges by address in the page (the relay under TLS is this server's
 * own `/socket`, which `'self'` covers). xterm.js and highlighting write `<style>` elements,
 * hence inline styles; no inline script runs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' blob:",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** A chunk the bundler names by its content's hash (`/chat-<hash>.js` and its map). */
const HASHED = /^\/[a-z_]+-[A-Za-z0-9_]+\.js(?:\.map)?$/;

/**
 * How long a browser may keep the file at `path`: a hashed chunk never changes under its name,
 * so it is kept for a year without asking again; everything else (the shell, `/app.js`, the
 * worker, the config) names no version, so it is read fresh every time and a new build shows
 * on the next load.
 */
export function cacheControl(path: string): string {
  return HASHED.test(path) ? "public, max-age=31536000, immutable" : "no-store";
}

/** The headers for a file of `type` served at `path`. */
export function fileHeaders(path: string, type: string): HeadersInit {
  return {
    "content-type": type,
    "cache-control": cacheControl(path),
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
}
