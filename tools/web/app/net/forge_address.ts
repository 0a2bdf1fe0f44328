/**
 * A forge's address as a person gives it, read into the socket URL the page dials. A person
 * types what they know: `box.lan:8790`, `http://box.lan:8790`, `wss://box.lan:8791/socket`, or
 * a path on this page's own server (`/socket`, the web program's relay under TLS).
 */
export type AddressRead = { ok: true; url: string; host: string } | { ok: false; why: string };

/**
 * Reads one address against the page's own address (`base`, `location.href`): the scheme
 * follows the page's (an https page dials `wss:`, since a browser refuses plain `ws:` from one
 * to anything but this machine), the path defaults to `/socket`, and `host` (host and port as
 * the URL spells them) is the name the page draws beside every row of that forge.
 */
export function readAddress(input: string, base: string): AddressRead {
  const text = input.trim();
  if (!text) return { ok: false, why: "the address is empty" };
  const page = new URL(base);
  const secure = page.protocol === "https:";
  let spelled = text;
  if (text.startsWith("/")) {
    spelled = `${secure ? "wss" : "ws"}://${page.host}${text}`;
  } else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    spelled = `${secure ? "wss" : "ws"}://${text}`;
  }
  let url: URL;
  try {
    url = new URL(spelled);
  } catch {
    return { ok: false, why: `${text} is not an address (try host:port or wss://host:port)` };
  }
  const scheme = { "http:": "ws:", "https:": "wss:", "ws:": "ws:", "wss:": "wss:" }[url.protocol];
  if (!scheme) {
    return { ok: false, why: `${text}: a forge is reached over ws, wss, http or https` };
  }
  if (!url.hostname) return { ok: false, why: `${text} names no host` };
  url.protocol = scheme;
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/socket";
  url.hash = "";
  return { ok: true, url: url.href, host: url.host };
}

/**
 * The page's forges, in order: the repeated `?forge=` of the page's address when it has any,
 * else the list this browser keeps, else the one the web program was started with.
 */
export function forgeList(
  query: URLSearchParams,
  kept: string | null,
  served: string,
): { urls: string[]; from: "query" | "kept" | "served" } {
  const asked = query.getAll("forge").filter((f) => f.trim() !== "");
  if (asked.length > 0) return { urls: asked, from: "query" };
  const list = parseKept(kept);
  if (list.length > 0) return { urls: list, from: "kept" };
  return { urls: [served], from: "served" };
}

/** The kept list (local storage) read leniently: anything but an array of strings is none. */
function parseKept(kept: string | null): string[] {
  if (!kept) return [];
  try {
    const value: unknown = JSON.parse(kept);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
