import { AccountUsage } from "../../protocol/accounts.ts";

/**
 * Each account's last usage snapshot, kept in `<stateDir>/gateway/usage.json` so home shows the
 * windows after a restart rather than empty bars until the first response. spec: home >
 * accounts (each account's cached usage snapshot). Written whole to a temp file and renamed, so
 * a crash leaves the old file or the new one; an unreadable file is an empty cache.
 */
export class UsageCache {
  constructor(readonly path: string | null) {}

  load(): Map<string, AccountUsage> {
    const out = new Map<string, AccountUsage>();
    if (!this.path) return out;
    try {
      const raw = JSON.parse(Deno.readTextFileSync(this.path)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(raw)) {
        const parsed = AccountUsage.safeParse(value);
        if (parsed.success) out.set(name, parsed.data);
      }
    } catch { /* none yet, or unreadable: start empty */ }
    return out;
  }

  save(usage: Map<string, AccountUsage>): void {
    if (!this.path) return;
    try {
      const tmp = `${this.path}.tmp`;
      Deno.writeTextFileSync(tmp, JSON.stringify(Object.fromEntries(usage)));
      Deno.renameSync(tmp, this.path);
    } catch { /* a cache that cannot be written costs the next boot its bars, nothing else */ }
  }
}
