import { RolledFile } from "../log.ts";

/** The ledger's size before it rolls to `.1` (one line per API call, about 70 bytes). */
export const LEDGER_ROLL_BYTES = 8 * 1024 * 1024;

/**
 * Which account answered each API request, by the upstream's `request-id`: one JSON line per
 * response in `<stateDir>/gateway/requests.jsonl` (rolled once to `.1`). The CLI writes the same
 * id into its transcript as `requestId`, so the usage scan attributes each message's cost to the
 * account it ran under, across rotations and restarts. spec: usage (cost per account).
 */
export class RequestLedger {
  readonly #file: RolledFile | null;

  constructor(readonly path: string | null) {
    if (path) Deno.mkdirSync(path.replace(/\/[^/]*$/, ""), { recursive: true });
    this.#file = path ? new RolledFile(path, LEDGER_ROLL_BYTES) : null;
  }

  record(requestId: string, account: string): void {
    this.#file?.append(JSON.stringify({ request_id: requestId, account }));
  }

  /** request-id -> account, the rolled copy first so a newer line wins. Unreadable lines skip. */
  async read(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!this.path) return out;
    for (const file of [`${this.path}.1`, this.path]) {
      const text = await Deno.readTextFile(file).catch(() => "");
      for (const line of text.split("\n")) {
        if (!line) continue;
        try {
          const v = JSON.parse(line) as { request_id?: unknown; account?: unknown };
          if (typeof v.request_id === "string" && typeof v.account === "string") {
            out.set(v.request_id, v.account);
          }
        } catch { /* a torn line: skipped */ }
      }
    }
    return out;
  }
}
