/**
 * The Origin policy. spec: The socket > Reaching it. A present origin must be the shell's, the
 * server's own (`http://<bind>:<port>`), a page on this machine (localhost or any loopback IP, on
 * http or https, any port), or one the operator listed in `[server] allowed_origins`. No Origin is
 * a native client and is allowed. The authority is read as a host and an optional numeric port,
 * so `localhost.evil.com`, `[::1].evil.com` and userinfo tricks stay refused.
 */
const SHELL_ORIGINS = new Set([
  "tauri://localhost",
  "http://tauri.localhost",
  "https://tauri.localhost",
]);

export interface OriginPolicy {
  bind: string;
  port: number;
  allowed: readonly string[];
}

export type OriginVerdict = { ok: true } | { ok: false; why: string };

export function checkOrigin(origin: string | null, policy: OriginPolicy): OriginVerdict {
  if (origin === null) return { ok: true };
  if (SHELL_ORIGINS.has(origin)) return { ok: true };
  const parsed = parseOrigin(origin);
  if (!parsed) return { ok: false, why: "not a scheme://host[:port] origin" };
  const canonical = `${parsed.scheme}://${formatHost(parsed.host)}${
    parsed.port === null ? "" : `:${parsed.port}`
  }`;
  if (policy.allowed.some((a) => sameOrigin(a, canonical))) return { ok: true };
  if (
    parsed.scheme === "http" && parsed.host === normalizeHost(policy.bind) &&
    parsed.port === policy.port
  ) {
    return { ok: true };
  }
  if ((parsed.scheme === "http" || parsed.scheme === "https") && isLoopbackHost(parsed.host)) {
    return { ok: true };
  }
  return {
    ok: false,
    why: "not the shell's, the server's own, a loopback page or an allowed origin",
  };
}

interface ParsedOrigin {
  scheme: string;
  host: string;
  port: number | null;
}

/**
 * Reads `scheme://authority` strictly: no path, no userinfo, a host that is a DNS name, an IPv4
 * address or a bracketed IPv6 address, and an optional all-digit port. Anything else is refused.
 */
export function parseOrigin(origin: string): ParsedOrigin | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.+)$/i.exec(origin);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const authority = m[2];
  if (/[/?#@\\\s]/.test(authority)) return null;
  let host: string;
  let rest: string;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close < 0) return null;
    host = authority.slice(1, close);
    if (!/^[0-9a-f:.]+$/i.test(host)) return null;
    rest = authority.slice(close + 1);
  } else {
    const colon = authority.indexOf(":");
    host = colon < 0 ? authority : authority.slice(0, colon);
    rest = colon < 0 ? "" : authority.slice(colon);
    if (!/^[a-z0-9.-]+$/i.test(host)) return null;
  }
  let port: number | null = null;
  if (rest !== "") {
    const pm = /^:(\d{1,5})$/.exec(rest);
    if (!pm) return null;
    port = Number(pm[1]);
    if (port > 65535) return null;
  }
  return { scheme, host: normalizeHost(host), port };
}

function normalizeHost(host: string): string {
  return host.replace(/^\[|\]$/g, "").toLowerCase();
}

function formatHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** localhost, any 127.0.0.0/8 address, ::1 (in any spelling) and IPv4-mapped loopback. */
export function isLoopbackHost(host: string): boolean {
  const h = normalizeHost(host);
  if (h === "localhost") return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) return v4.slice(1).every((o) => Number(o) <= 255) && v4[1] === "127";
  if (!h.includes(":")) return false;
  const mapped = /^(?:0*:)*:?(?:0*:)*ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return isLoopbackHost(mapped[1]);
  return expandIpv6(h) === "0000:0000:0000:0000:0000:0000:0000:0001";
}

/** An IP literal of a private network: RFC 1918, the shared 100.64/10 (a tailnet's), IPv6 ULA. */
export function isPrivateHost(host: string): boolean {
  const h = normalizeHost(host);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((o) => Number(o) > 255)) return false;
    return a === 10 || a === 172 && b >= 16 && b <= 31 || a === 192 && b === 168 ||
      a === 100 && b >= 64 && b <= 127;
  }
  const full = h.includes(":") ? expandIpv6(h) : null;
  return full !== null && /^f[cd]/.test(full);
}

function expandIpv6(h: string): string | null {
  const halves = h.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  const groups = [...head, ...Array(fill).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.padStart(4, "0")).join(":");
}

function sameOrigin(listed: string, canonical: string): boolean {
  const parsed = parseOrigin(listed.trim());
  if (!parsed) return false;
  return `${parsed.scheme}://${formatHost(parsed.host)}${
    parsed.port === null ? "" : `:${parsed.port}`
  }` === canonical;
}
