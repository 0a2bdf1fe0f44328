/** What a browser gives only to a secure context (https, or a page on this machine). */
export const WITHHELD = [
  "the microphone (dictation)",
  "the service worker (installing the page, opening it offline)",
  "notifications",
  "push",
] as const;

/**
 * Said where the page is not a secure context - plain http from another machine: which features
 * the browser withholds and why, and what serves it so they work.
 */
export function Secure() {
  if (globalThis.isSecureContext) return null;
  return (
    <div class="notice" data-testid="insecure" role="status">
      This page came over plain http from{" "}
      {location.host}, which is not this machine, so the browser withholds{" "}
      {WITHHELD.slice(0, -1).join(", ")} and{" "}
      {WITHHELD.at(-1)}: it gives them only to https pages and to pages served from the device
      itself. Serve the page over TLS with <code>task web --cert PATH --key PATH</code>{" "}
      (the web client's docs say how).
    </div>
  );
}
