import { X509Certificate } from "node:crypto";

/** A name a browser on this machine uses: forge allows such a page without being told. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1)$/i;

/**
 * The origins a page served with this certificate is opened by, as forge's `[server]
 * allowed_origins` must list them (docs/web.md "Over TLS"): `https://`, each name the certificate
 * is for (its subjectAltName's DNS names and IP addresses, else its subject's CN) in lowercase,
 * then `:port` unless it is 443, as the browser sends it. Loopback names are left out: forge
 * allows its own machine's pages. Empty when the certificate names nothing else.
 */
export function certOrigins(pem: string, port: number): string[] {
  const cert = new X509Certificate(pem);
  const alt = (cert.subjectAltName ?? "").split(/,\s*/).flatMap((entry) => {
    const m = /^(DNS|IP Address):(.+)$/.exec(entry.trim());
    return m ? [m[2]] : [];
  });
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  const names = alt.length > 0 ? alt : cn ? [cn] : [];
  const suffix = port === 443 ? "" : `:${port}`;
  return [...new Set(names.map((n) => n.toLowerCase()))]
    .filter((n) => !LOOPBACK.test(n))
    .map((n) => `https://${n.includes(":") ? `[${n}]` : n}${suffix}`);
}
