import { KeptLog } from "../state/kept_log.ts";
import type { StateKeeper } from "../state/keeper.ts";

/** The ledger's size before it rolls to `.1` (one line per API call, about 70 bytes). */
export const LEDGER_ROLL_BYTES = 8 * 1024 * 1024;

type Line = { request_id: string; account: string };
const isLine = (v: unknown): v is Line =>
  typeof (v as Line)?.request_id === "string" && typeof (v as Line)?.account === "string";

/**
 * Which account answered each API request, by the upstream's `request-id`: one JSON line per
 * response in `<stateDir>/gateway/requests.jsonl` (rolled once to `.1`), kept by the keeper's
 * append-only log (server/state/kept_log.ts: a torn last line is cut at boot, a damaged file is
 * kept aside and refuses appends). The CLI writes the same id into its transcript as
 * `requestId`, so the usage scan attributes each message's cost to the account it ran under,
 * across rotations and restarts. spec: usage (cost per account).
 */
export class RequestLedger {
  readonly #log: KeptLog | null;
  #opened: Promise<unknown> | null = null;

  constructor(keeper: StateKeeper | null, readonly path: string | null) {
    this.#log = keeper && path
      ? new KeptLog(keeper, path, {
        area: "the request ledger",
        line: isLine,
        rollBytes: LEDGER_ROLL_BYTES,
      })
      : null;
  }

  /** Reads the ledger once (boot): a torn tail is cut before the first append. */
  open(): Promise<unknown> {
    return (this.#opened ??= this.#log?.open() ?? Promise.resolve());
  }

  record(requestId: string, account: string): void {
    this.#log?.append({ request_id: requestId, account });
  }

  /** request-id -> account, the rolled copy first so a newer line wins. */
  async read(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!this.#log) return out;
    await this.open();
    for (const line of await this.#log.records()) {
      if (isLine(line)) out.set(line.request_id, line.account);
    }
    return out;
  }
}
