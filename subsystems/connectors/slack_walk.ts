import type { SlackApi } from "./slack_api.ts";

/** A Slack message as the poll reads it. */
export type Msg = {
  ts?: string;
  user?: string;
  text?: string;
  thread_ts?: string;
  reply_count?: number;
  /** On a thread's parent: the ts of its newest reply. */
  latest_reply?: string;
};

/** What forge asks for per page. Slack may answer fewer (15 for an app outside its Marketplace). */
export const PAGE_LIMIT = 200;

/** How many pages a poll reads of one conversation, or one thread, before leaving the rest. */
export const PAGES_PER_POLL = 10;

/**
 * How often a conversation's followed threads are swept for replies: two history calls a minute
 * beside the poll's own, well inside Slack's allowance for the method (about 50 a minute).
 */
export const THREAD_SWEEP_SECONDS = 30;

/** What a walk down a conversation's history found. */
export type HistoryWalk =
  /** The whole span was read: every message in it, oldest first. */
  | { done: true; messages: Msg[] }
  /** The page cap came first: the lowest ts read (null if none). Below it is still unread. */
  | { done: false; lowest: string | null };

/**
 * Reads a conversation's history newer than `oldest` and older than `latest` (both exclusive; no
 * `latest`: up to the newest), following `response_metadata.next_cursor` for at most `maxPages`
 * pages. Slack answers newest first, so until the last page comes, what lies between the mark and
 * the pages read is unknown: a walk cut short hands back nothing to deliver, only where it
 * stopped, and the span below that is read first next time.
 */
export async function walkHistory(
  api: SlackApi,
  channel: string,
  span: { oldest: string; latest?: string },
  maxPages: number,
): Promise<HistoryWalk> {
  const read = new Map<string, Msg>();
  const done = await historyPages(api, channel, span, maxPages, (page) => {
    for (const m of page) if (m.ts! > span.oldest) read.set(m.ts!, m);
  });
  if (done) return { done: true, messages: [...read.values()].sort(byTs) };
  return { done: false, lowest: [...read.keys()].sort()[0] ?? null };
}

/**
 * Hands `take` each page of `conversations.history` for `params` (newest first), following
 * `response_metadata.next_cursor` for at most `maxPages` pages; answers whether the last page came.
 */
async function historyPages(
  api: SlackApi,
  channel: string,
  params: Record<string, unknown>,
  maxPages: number,
  take: (page: Msg[]) => void,
): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await api.call("conversations.history", {
      channel,
      ...params,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    take(messagesOf(answer));
    cursor = nextCursor(api, answer, "conversations.history", channel);
    if (!cursor) return true;
  }
  return false;
}

/**
 * A thread's replies newer than `after`, one page at a time, oldest first, for at most `maxPages`
 * pages (the parent Slack puts at the head of a page is left out). A thread pages oldest first, so
 * each page may be delivered as it comes and a walk cut short leaves only newer replies.
 */
export async function* replyPages(
  api: SlackApi,
  channel: string,
  parent: string,
  after: string,
  maxPages: number,
): AsyncGenerator<Msg[]> {
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await api.call("conversations.replies", {
      channel,
      ts: parent,
      oldest: after,
      limit: PAGE_LIMIT,
      ...(cursor ? { cursor } : {}),
    });
    yield messagesOf(answer).filter((r) => r.ts! > after && r.ts !== parent).sort(byTs);
    cursor = nextCursor(api, answer, "conversations.replies", channel);
    if (!cursor) return;
  }
}

/** What one round of a thread sweep read (`sweepThreads`). */
export interface SweepRound {
  /** Each parent read that has replies, with the ts of its newest reply. */
  newest: Map<string, string>;
  /** The lowest ts the round read (null if none); a round cut short goes on below it next. */
  lowest: string | null;
  /** Whether the round reached `bottom`. */
  done: boolean;
}

/**
 * One round of the sweep that finds threads with news: the conversation's history from `top`
 * (none: the newest) down to `bottom`, both inclusive, for at most `maxPages` pages, noting each
 * parent's `latest_reply`. Slack puts a thread's newest reply on its parent, so one history page
 * tells which of up to `PAGE_LIMIT` threads have replies to read, where asking each thread costs
 * a call per thread (and a conversation.replies allowance a busy channel's threads exhaust).
 */
export async function sweepThreads(
  api: SlackApi,
  channel: string,
  span: { bottom: string; top?: string },
  maxPages: number,
): Promise<SweepRound> {
  const newest = new Map<string, string>();
  let lowest: string | null = null;
  const params = {
    oldest: span.bottom,
    ...(span.top ? { latest: span.top } : {}),
    inclusive: true,
  };
  const done = await historyPages(api, channel, params, maxPages, (page) => {
    for (const m of page) {
      if (lowest === null || m.ts! < lowest) lowest = m.ts!;
      if (typeof m.latest_reply === "string") newest.set(m.ts!, m.latest_reply);
    }
  });
  return { newest, lowest, done };
}

function messagesOf(answer: Record<string, unknown>): Msg[] {
  const list = Array.isArray(answer.messages) ? answer.messages as Msg[] : [];
  return list.filter((m) => typeof m?.ts === "string");
}

/** The next page's cursor, or undefined when Slack says there is no more. */
function nextCursor(
  api: SlackApi,
  answer: Record<string, unknown>,
  method: string,
  channel: string,
): string | undefined {
  const meta = answer.response_metadata as { next_cursor?: unknown } | undefined;
  const next = typeof meta?.next_cursor === "string" && meta.next_cursor ? meta.next_cursor : "";
  if (next) return next;
  // Read as the end, a page that says there is more would move the mark past messages unread.
  if (answer.has_more === true) {
    throw new Error(
      `Slack (${api.config.workspace}) said ${method} of ${channel} had more but gave no cursor`,
    );
  }
  return undefined;
}

/** Orders by ts; Slack ts values (`<secs>.<6 digits>`) compare as strings, never as floats. */
export function byTs(a: Msg, b: Msg): number {
  return a.ts! < b.ts! ? -1 : a.ts! > b.ts! ? 1 : 0;
}
