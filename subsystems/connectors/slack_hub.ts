import { z } from "zod";
import type { SlackSubscription } from "../../protocol/mod.ts";
import type { SlackWorkspaceConfig } from "../../server/config/types.ts";
import { SlackApi } from "./slack_api.ts";
import { type KeptFile, schemaParse, type StateKeeper } from "../../server/subsystem.ts";
import {
  type Msg,
  PAGES_PER_POLL,
  replyPages,
  type SweepRound,
  sweepThreads,
  THREAD_SWEEP_SECONDS,
  walkHistory,
} from "./slack_walk.ts";

/** What a poll found: one message for the seats whose subscriptions take it. */
export interface SlackArrival {
  workspace: string;
  conversation: string;
  conversationName: string | null;
  ts: string;
  threadTs: string | null;
  user: string;
  userName: string;
  text: string;
  /** The subscriptions that take it (several seats may share one message). */
  takers: SlackSubscription[];
}

const Marks = z.record(
  z.string(),
  z.object({
    conversations: z.record(z.string(), z.string()),
    threads: z.record(z.string(), z.object({ last: z.string(), active_at: z.number() })),
    // Per conversation, where walks cut short by the page cap stopped, lowest first: the span
    // between the mark and the first is read next, then the span up to the one after it.
    backlog: z.record(z.string(), z.array(z.string())).default({}),
  }),
);
type Marks = z.infer<typeof Marks>;

/** The marks file, kept by forge's keeper: how far each conversation was read. */
export function marksFile(keeper: StateKeeper, path: string): KeptFile<Marks> {
  return keeper.file(path, {
    area: "the Slack connector",
    parse: schemaParse(Marks, "a set of Slack read marks"),
  });
}

/** One workspace: its API, who the token's user is, and whether the last call got through. */
export class SlackWorkspace {
  readonly api: SlackApi;
  me: string | null = null;
  connected = false;
  error: string | null = null;
  names = new Map<string, string>();
  namesRead = false;
  #users = new Map<string, string>();

  constructor(readonly config: SlackWorkspaceConfig, onRateLimit: (s: number) => void) {
    this.api = new SlackApi(config, onRateLimit);
  }

  async userName(id: string): Promise<string> {
    if (!this.#users.has(id)) {
      // A name is a nicety: a user Slack will not describe is shown by their id.
      const info = await this.api.call("users.info", { user: id }).catch(() => null);
      const user = info?.user as { name?: string } | undefined;
      this.#users.set(id, user?.name ?? id);
    }
    return this.#users.get(id)!;
  }
}

/**
 * Every `[[slack]]` workspace and its poll (the original's polling model): every
 * `poll_seconds` each subscribed conversation is read from its mark (`conversations.history`,
 * `oldest` exclusive, every page of it, oldest delivered first), threads seen there are followed
 * until idle for `thread_idle_days` (swept for news every `THREAD_SWEEP_SECONDS`, and only a
 * thread with news read with `conversations.replies`), and the marks are stored, so across
 * restarts each message arrives once. A poll reads at most `pagesPerPoll` pages of one
 * conversation or thread; what is left is read by the next poll, never skipped.
 */
export class SlackHub {
  readonly workspaces = new Map<string, SlackWorkspace>();
  #marks: Marks = {};
  #timers = new Map<string, ReturnType<typeof setTimeout>>();
  #stopped = false;
  #running = new Set<Promise<void>>();
  readonly #pages: number;
  readonly #sweepMs: number;
  /** Per conversation: when its threads were last swept, and where a sweep cut short resumes. */
  readonly #sweeps = new Map<string, { at: number; top: string | undefined }>();

  constructor(
    configs: SlackWorkspaceConfig[],
    private readonly opts: {
      /** The read marks (`marksFile`); while damaged, no poll runs (it could repeat messages). */
      marks: KeptFile<Marks>;
      subscriptions: () => readonly SlackSubscription[];
      arrive: (a: SlackArrival) => void;
      onState: () => void;
      warn: (event: string, fields: Record<string, unknown>) => void;
      /** Pages one poll reads of one conversation or thread (PAGES_PER_POLL unless a test says). */
      pagesPerPoll?: number;
      /** How often a conversation's threads are swept for news (THREAD_SWEEP_SECONDS unless a
       * test says): a reply arrives within this, plus a poll. */
      threadSweepSeconds?: number;
    },
  ) {
    this.#pages = opts.pagesPerPoll ?? PAGES_PER_POLL;
    this.#sweepMs = (opts.threadSweepSeconds ?? THREAD_SWEEP_SECONDS) * 1000;
    for (const c of configs) {
      this.workspaces.set(
        c.workspace,
        new SlackWorkspace(
          c,
          (s) => opts.warn("slack_rate_limited", { workspace: c.workspace, s }),
        ),
      );
    }
  }

  async start(): Promise<void> {
    const read = await this.opts.marks.read();
    if (read.state === "read") this.#marks = read.value;
    for (const ws of this.workspaces.values()) {
      const tick = () => {
        if (this.#stopped) return;
        const run = this.#poll(ws).finally(() => {
          this.#running.delete(run);
          if (this.#stopped) return;
          this.#timers.set(ws.config.workspace, setTimeout(tick, ws.config.poll_seconds * 1000));
        });
        this.#running.add(run);
      };
      tick();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers.values()) clearTimeout(t);
    await Promise.all(this.#running);
  }

  /**
   * Starts a conversation's mark at its newest message: a new subscription reads from now. A
   * mark already held is kept (another subscription reads from it) unless `restart`: nothing
   * watched the conversation meanwhile, so what was said since is not news to deliver.
   */
  async markNow(ws: SlackWorkspace, conversation: string, restart = false): Promise<void> {
    const mine = this.#marksOf(ws.config.workspace);
    if (mine.conversations[conversation] !== undefined && !restart) return;
    const page = await ws.api.call("conversations.history", { channel: conversation, limit: 1 });
    mine.conversations[conversation] = (page.messages as Msg[])[0]?.ts ?? "0";
    delete mine.backlog[conversation];
    await this.opts.marks.write(this.#marks);
  }

  /**
   * Marks every conversation the user is in (what a direct-message or mention subscription reads)
   * at its newest message, so the subscription reads from the moment it was made. Left to the
   * next poll, a message written between the subscribe and that poll was taken as the mark and
   * never delivered (as in the original, a new subscription starts its watermark at "now").
   */
  async markMembers(ws: SlackWorkspace): Promise<void> {
    for (const c of await this.#memberOf(ws)) await this.markNow(ws, c.id);
  }

  #marksOf(workspace: string) {
    return (this.#marks[workspace] ??= { conversations: {}, threads: {}, backlog: {} });
  }

  async #poll(ws: SlackWorkspace): Promise<void> {
    try {
      const mended = await this.opts.marks.writable();
      if (mended) this.#marks = mended.state === "read" ? mended.value : {};
      if (ws.me === null) ws.me = String((await ws.api.call("auth.test")).user_id);
      const watched = await this.#watched(ws);
      if (!ws.namesRead && [...watched.keys()].some((id) => !ws.names.has(id))) {
        // Names for the turn's words (`#general`); read once per run, a failure costs only names.
        ws.namesRead = true;
        await this.#memberOf(ws).catch(() => {/* names only: the conversation ids still work */});
      }
      for (const [conversation, takers] of watched) {
        // One conversation Slack refuses (left, archived) is logged; the others are still read.
        await this.#read(ws, conversation, takers).catch((err) =>
          this.opts.warn("slack_conversation_failed", {
            workspace: ws.config.workspace,
            conversation,
            error: (err as Error).message,
          })
        );
        await this.opts.marks.write(this.#marks);
      }
      this.#setState(ws, true, null);
    } catch (err) {
      this.#setState(ws, false, (err as Error).message);
      this.opts.warn("slack_poll_failed", { workspace: ws.config.workspace, error: ws.error });
    }
  }

  /** Each conversation to read, with the subscriptions (and their mode) that take it. */
  async #watched(ws: SlackWorkspace) {
    const subs = this.opts.subscriptions().filter((s) => s.workspace === ws.config.workspace);
    const out = new Map<string, { sub: SlackSubscription; mode: "all" | "mentions" }[]>();
    const add = (id: string, sub: SlackSubscription, mode: "all" | "mentions") =>
      out.set(id, [...(out.get(id) ?? []), { sub, mode }]);
    for (const s of subs) for (const c of s.conversations) add(c.id, s, c.mode);
    if (subs.some((s) => s.direct_messages || s.mentions)) {
      const member = await this.#memberOf(ws);
      for (const c of member) {
        for (const s of subs) {
          if (s.direct_messages && c.im) add(c.id, s, "all");
          else if (s.mentions && !c.im) add(c.id, s, "mentions");
        }
      }
    }
    return out;
  }

  async #memberOf(ws: SlackWorkspace): Promise<{ id: string; im: boolean }[]> {
    const out: { id: string; im: boolean }[] = [];
    let cursor: string | undefined;
    do {
      const page = await ws.api.call("users.conversations", {
        types: "public_channel,private_channel,mpim,im",
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const c of page.channels as Record<string, unknown>[]) {
        const id = String(c.id);
        if (typeof c.name === "string") ws.names.set(id, c.name);
        out.push({ id, im: c.is_im === true || c.is_mpim === true });
      }
      cursor = (page.response_metadata as { next_cursor?: string } | undefined)?.next_cursor ||
        undefined;
    } while (cursor);
    return out;
  }

  async #read(
    ws: SlackWorkspace,
    conversation: string,
    takers: { sub: SlackSubscription; mode: "all" | "mentions" }[],
  ): Promise<void> {
    const marks = this.#marksOf(ws.config.workspace);
    if (marks.conversations[conversation] === undefined) {
      await this.markNow(ws, conversation);
      return;
    }
    // Walks cut short left spans below where they stopped: the lowest is read first, in order.
    const backlog = marks.backlog[conversation] ?? [];
    const walk = await walkHistory(ws.api, conversation, {
      oldest: marks.conversations[conversation],
      ...(backlog.length ? { latest: backlog[0] } : {}),
    }, this.#pages);
    if (!walk.done) {
      if (walk.lowest !== null) marks.backlog[conversation] = [walk.lowest, ...backlog];
    } else {
      for (const m of walk.messages) {
        await this.#arrive(ws, conversation, m, null, takers);
        marks.conversations[conversation] = m.ts!;
        // Follow its thread from here: replies to it arrive until it goes idle.
        marks.threads[`${conversation}|${m.ts}`] ??= { last: m.ts!, active_at: Date.now() };
      }
      if (backlog.length > 1) marks.backlog[conversation] = backlog.slice(1);
      else delete marks.backlog[conversation];
    }
    await this.#followThreads(ws, conversation, takers);
  }

  /**
   * Reads the replies of the conversation's followed threads that have news. Which do is learnt
   * from the parents' `latest_reply` (`sweepThreads`), a page of history for up to `PAGE_LIMIT`
   * threads, at most every `threadSweepSeconds`; only a thread whose newest reply is past its mark
   * costs a `conversations.replies` walk. A sweep cut short by the page cap goes on from where it
   * stopped in the next round, so every followed thread is looked at in turn.
   */
  async #followThreads(
    ws: SlackWorkspace,
    conversation: string,
    takers: { sub: SlackSubscription; mode: "all" | "mentions" }[],
  ): Promise<void> {
    const marks = this.#marksOf(ws.config.workspace);
    const idleMs = ws.config.thread_idle_days * 86_400_000;
    const followed = new Map<string, { last: string; active_at: number }>();
    for (const [key, thread] of Object.entries(marks.threads)) {
      const [conv, parent] = key.split("|");
      if (conv !== conversation) continue;
      if (Date.now() - thread.active_at > idleMs) delete marks.threads[key];
      else followed.set(parent, thread);
    }
    const sweepKey = `${ws.config.workspace}|${conversation}`;
    const sweep = this.#sweeps.get(sweepKey) ?? { at: -Infinity, top: undefined };
    if (followed.size === 0 || Date.now() - sweep.at < this.#sweepMs) return;
    const bottom = [...followed.keys()].sort()[0];
    let round: SweepRound;
    try {
      round = await sweepThreads(ws.api, conversation, { bottom, top: sweep.top }, this.#pages);
    } catch (error) {
      // History Slack will not read now: named once a round, and the next round tries again.
      this.opts.warn("slack_thread_sweep_failed", {
        workspace: ws.config.workspace,
        conversation,
        error: (error as Error).message,
      });
      return;
    }
    this.#sweeps.set(sweepKey, {
      at: Date.now(),
      top: round.done || round.lowest === null ? undefined : round.lowest,
    });
    for (const [parent, thread] of followed) {
      const newest = round.newest.get(parent);
      if (newest === undefined || newest <= thread.last) continue;
      try {
        for await (
          const page of replyPages(ws.api, conversation, parent, thread.last, this.#pages)
        ) {
          for (const r of page) {
            await this.#arrive(ws, conversation, r, parent, takers);
            thread.last = r.ts!;
            thread.active_at = Date.now();
          }
        }
      } catch {
        // a thread Slack will not read: what was delivered stays marked, the rest is tried next poll
      }
    }
  }

  async #arrive(
    ws: SlackWorkspace,
    conversation: string,
    m: Msg,
    threadTs: string | null,
    takers: { sub: SlackSubscription; mode: "all" | "mentions" }[],
  ): Promise<void> {
    if (!m.user || m.user === ws.me) return; // the user's own words are not news to them
    const text = m.text ?? "";
    const mentioned = ws.me !== null && text.includes(`<@${ws.me}>`);
    const subs = takers.filter((t) => t.mode === "all" || mentioned).map((t) => t.sub);
    if (subs.length === 0) return;
    this.opts.arrive({
      workspace: ws.config.workspace,
      conversation,
      conversationName: ws.names.get(conversation) ?? null,
      ts: m.ts!,
      threadTs,
      user: m.user,
      userName: await ws.userName(m.user),
      text,
      takers: subs,
    });
  }

  #setState(ws: SlackWorkspace, connected: boolean, error: string | null): void {
    const moved = ws.connected !== connected;
    ws.connected = connected;
    ws.error = error;
    if (moved) this.opts.onState();
  }
}
