/**
 * The usage report: the pool's API messages folded into four windows of local time, each
 * grouped by model and by project with a total row. spec: Subjects > usage.
 *
 * Windows are cut in the machine's LOCAL time zone: `today` from local midnight, `week` from
 * Monday 00:00 (weeks start on Monday), `month` from the 1st at 00:00, `lifetime` everything.
 * A window has no upper bound, so a line stamped a little in the future still counts.
 */
import { AT, CC, CC1H, COLS, CR, CWD, FAST, HASH, INPUT, KEY_AT, KEY_LENGTH } from "./packed.ts";
import { MODEL, OUTPUT, REQUEST_LENGTH } from "./packed.ts";
import { type MessageTokens, noTokens, type PriceTable } from "./prices.ts";
import type { UsageRow, UsageSnapshot, UsageWindow } from "../../protocol/usage.ts";
import type { PoolFile } from "./scan.ts";
import { CountedMessages } from "./counted.ts";

export type {
  UsageProjectRow,
  UsageRow,
  UsageSnapshot,
  UsageWindow,
} from "../../protocol/usage.ts";

/** A forge project: its name and the directory that holds its sessions' cwds. */
export interface ProjectRef {
  name: string;
  path: string;
}

/** Epoch ms of the local-time starts of today, this week (Monday) and this month. */
export function windowStarts(now: Date): { today: number; week: number; month: number } {
  const y = now.getFullYear(), m = now.getMonth(), d = now.getDate();
  const mondayOffset = (now.getDay() + 6) % 7; // getDay: Sunday 0 .. Saturday 6
  return {
    today: new Date(y, m, d).getTime(),
    week: new Date(y, m, d - mondayOffset).getTime(),
    month: new Date(y, m, 1).getTime(),
  };
}

class Acc {
  messages = 0;
  input = 0;
  output = 0;
  cacheCreation = 0;
  cacheRead = 0;
  cost = 0;
  readonly unpriced = new Set<string>();

  add(r: MessageTokens, cost: number | null, unpricedName: string | null): void {
    this.messages++;
    this.input += r.input;
    this.output += r.output;
    this.cacheCreation += r.cache_creation;
    this.cacheRead += r.cache_read;
    if (unpricedName === null) this.cost += cost!;
    else this.unpriced.add(unpricedName);
  }
}

/** The row for messages the gateway's ledger does not name. */
export const UNATTRIBUTED = "unattributed";

interface Group {
  byAccount: Map<string, Acc>;
  byModel: Map<string, Acc>;
  byProject: Map<string, { acc: Acc; path: string | null; forge: boolean }>;
  total: Acc;
}

/** What a report is built for: the projects, prices, the clock and the request accounts. */
export interface ReportOptions {
  projects: ProjectRef[];
  prices: PriceTable | null;
  now: Date;
  /** request-id -> the account that answered it (server/gateway/ledger.ts). */
  accounts?: ReadonlyMap<string, string>;
}

/** Fold the pool into a snapshot. A message seen in several files counts in the first. */
export function buildSnapshot(files: PoolFile[], opts: ReportOptions): UsageSnapshot {
  const fold = new ReportFold(opts);
  for (const file of files) fold.add(file);
  return fold.snapshot();
}

/**
 * The report built a file at a time, in path order, so a first scan folds each file as it lands
 * rather than all of them after the last (totals built incrementally). A later scan whose files
 * only gained records folds just those into the same totals (`add` from a record on); `later`
 * and `attributes` say when that would not give what a fold of every file in path order gives.
 */
export class ReportFold {
  #opts: ReportOptions;
  readonly #starts: { today: number; week: number; month: number };
  readonly #groups: Group[];
  readonly #inWindows: Group[][];
  readonly #resolve: ReturnType<typeof projectResolver>;
  readonly #counted = new CountedMessages();
  /** Request ids the account map did not name when their message was folded. */
  readonly #unattributed = new Set<string>();
  /** Files folded so far. */
  files = 0;
  /** A message folded was counted already in a later file (CountedMessages.later). */
  get later(): boolean {
    return this.#counted.later;
  }

  constructor(opts: ReportOptions) {
    this.#opts = opts;
    this.#starts = windowStarts(opts.now);
    this.#groups = [0, 1, 2, 3].map((): Group => ({
      byAccount: new Map(),
      byModel: new Map(),
      byProject: new Map(),
      total: new Acc(),
    }));
    const [lifetime, month, week, today] = this.#groups;
    // The windows a message counts in, by which starts it is at or after (bit 1 month, 2 week,
    // 4 today): a week may begin in the previous month, so the windows do not simply nest.
    this.#inWindows = Array.from({ length: 8 }, (_, bits) => [
      lifetime,
      ...(bits & 1 ? [month] : []),
      ...(bits & 2 ? [week] : []),
      ...(bits & 4 ? [today] : []),
    ]);
    this.#resolve = projectResolver(opts.projects);
  }

  /** Fold the next file in path order; `from`: its records from this one on (the ones before
   * were folded by an earlier scan). */
  add(file: PoolFile, from = 0): void {
    const opts = this.#opts, starts = this.#starts, t = this.#tokens;
    const p = file.packed, n = p.nums, text = p.keyText, accounts = opts.accounts;
    const projects = p.cwds.map((cwd) => this.#resolve(cwd, file.slug));
    let odd = 0;
    while (odd < p.odd.length && p.odd[odd][0] < from) odd++;
    const seen = this.#counted;
    seen.inFile(file.path, from > 0);
    if (from === 0) this.files++;
    // Plain calls, no per-record closures or objects: this loop runs over every message.
    for (let i = from, o = from * COLS; i < p.count; i++, o += COLS) {
      const length = n[o + KEY_LENGTH], hash = n[o + HASH];
      let requestId: string | null = null;
      if (length >= 0) {
        if (seen.counted(hash, text, n[o + KEY_AT], length)) continue;
      } else {
        const [, key, request] = p.odd[odd++];
        requestId = request;
        if (key !== null && seen.counted(hash, key, 0, key.length)) continue;
      }
      const model = p.models[n[o + MODEL]];
      t.input = n[o + INPUT];
      t.output = n[o + OUTPUT];
      t.cache_creation = n[o + CC];
      t.cache_creation_1h = n[o + CC1H];
      t.cache_read = n[o + CR];
      t.fast = n[o + FAST] === 1;
      const cost = opts.prices?.costOf(model, t) ?? null;
      const project = projects[n[o + CWD]];
      let account = UNATTRIBUTED;
      if (accounts) {
        if (length >= 0) {
          requestId = text.slice(
            n[o + KEY_AT] + length - n[o + REQUEST_LENGTH],
            n[o + KEY_AT] + length,
          );
        }
        const named = requestId !== null ? accounts.get(requestId) : undefined;
        if (named === undefined && requestId !== null) {
          this.#unattributed.add(seen.own(requestId));
        }
        account = named ?? UNATTRIBUTED;
      }
      const unpricedName = cost !== null
        ? null
        : t.fast && opts.prices?.lookup(model)
        ? `${model} (fast)`
        : model;
      const at = n[o + AT];
      const counted = this.#inWindows[
        (at >= starts.month ? 1 : 0) | (at >= starts.week ? 2 : 0) | (at >= starts.today ? 4 : 0)
      ];
      for (const g of counted) {
        let modelAcc = g.byModel.get(model);
        if (!modelAcc) g.byModel.set(model, modelAcc = new Acc());
        let projectEntry = g.byProject.get(project.name);
        if (!projectEntry) {
          g.byProject.set(project.name, projectEntry = { acc: new Acc(), ...project });
        }
        let accountAcc = g.byAccount.get(account);
        if (!accountAcc) g.byAccount.set(account, accountAcc = new Acc());
        accountAcc.add(t, cost, unpricedName);
        modelAcc.add(t, cost, unpricedName);
        projectEntry.acc.add(t, cost, unpricedName);
        g.total.add(t, cost, unpricedName);
      }
    }
  }

  /**
   * Whether an account map may take over from the one the fold was built with: every request
   * the old map named is named the same, and no request whose message it folded unnamed is
   * named now. (The gateway's ledger only grows, with requests newer than the lines folded.)
   */
  attributes(accounts: ReadonlyMap<string, string> | undefined): boolean {
    const was = this.#opts.accounts;
    if (!was || !accounts) return was === accounts;
    for (const [request, account] of was) if (accounts.get(request) !== account) return false;
    if (accounts.size === was.size) return true;
    for (const request of accounts.keys()) {
      if (!was.has(request) && this.#unattributed.has(request)) return false;
    }
    return true;
  }

  /** A later scan's clock and account map: the windows' starts must be the same (windowStarts). */
  moveOn(now: Date, accounts: ReadonlyMap<string, string> | undefined): void {
    this.#opts = { ...this.#opts, now, accounts };
  }

  /** One message's tokens, refilled for each: the fold makes no object per message. */
  readonly #tokens: MessageTokens = noTokens();

  snapshot(): UsageSnapshot {
    const [lifetime, month, week, today] = this.#groups, starts = this.#starts;
    const window = (g: Group, since: number | null): UsageWindow => ({
      since: since === null ? null : new Date(since).toISOString(),
      by_model: sortRows([...g.byModel].map(([name, acc]) => row(name, acc))),
      by_project: sortRows(
        [...g.byProject].map(([name, e]) => ({
          ...row(name, e.acc),
          path: e.path,
          forge_project: e.forge,
        })),
      ),
      by_account: sortRows([...g.byAccount].map(([name, acc]) => row(name, acc))),
      total: row("total", g.total),
    });
    return {
      today: window(today, starts.today),
      week: window(week, starts.week),
      month: window(month, starts.month),
      lifetime: window(lifetime, null),
      pricing_available: this.#opts.prices !== null,
      prices: this.#opts.prices?.source ?? null,
      scanned_at: this.#opts.now.toISOString(),
      week_starts_on: "monday",
    };
  }
}

function row(name: string, acc: Acc): UsageRow {
  return {
    name,
    messages: acc.messages,
    input_tokens: acc.input,
    output_tokens: acc.output,
    cache_creation_tokens: acc.cacheCreation,
    cache_read_tokens: acc.cacheRead,
    cost_usd: acc.cost,
    unpriced_models: [...acc.unpriced].sort(),
  };
}

/** Cost descending (spec), then more tokens first, then name, so the order is stable. */
function sortRows<T extends UsageRow>(rows: T[]): T[] {
  const tokens = (r: UsageRow) =>
    r.input_tokens + r.output_tokens + r.cache_creation_tokens + r.cache_read_tokens;
  return rows.sort((a, b) =>
    b.cost_usd - a.cost_usd || tokens(b) - tokens(a) || (a.name < b.name ? -1 : 1)
  );
}

/**
 * A row's project is the forge project whose path holds the session's cwd (the deepest one
 * when paths nest), else the cwd itself. A transcript naming no cwd is matched by the CLI's
 * directory slug of each project path, else shown as the slug.
 */
export function projectResolver(
  projects: ProjectRef[],
): (cwd: string, slug: string) => { name: string; path: string | null; forge: boolean } {
  const byDepth = projects
    .map((p) => ({ name: p.name, path: trimSlash(p.path) }))
    .sort((a, b) => b.path.length - a.path.length);
  const memo = new Map<string, { name: string; path: string | null; forge: boolean }>();
  return (cwd, slug) => {
    const memoKey = cwd || `\0${slug}`;
    let hit = memo.get(memoKey);
    if (hit) return hit;
    const p = cwd
      ? byDepth.find((p) => cwd === p.path || cwd.startsWith(p.path === "/" ? "/" : p.path + "/"))
      : byDepth.find((p) => p.path.replace(/[^a-zA-Z0-9]/g, "-") === slug);
    hit = p
      ? { name: p.name, path: p.path, forge: true }
      : cwd
      ? { name: cwd, path: cwd, forge: false }
      : { name: slug, path: null, forge: false };
    memo.set(memoKey, hit);
    return hit;
  };
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}
