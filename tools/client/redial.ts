import { type Clock, MONOTONIC } from "../../server/clock.ts";
import { BACKOFF, type RedialPlan } from "../reconnect/backoff.ts";
import { BROWSER_DEADLINE_MS, QUIET_MS } from "../reconnect/probe.ts";
import type { ConnectFailed, ConnectionClosed } from "./errors.ts";
import type { Reattachment } from "./attachments.ts";
import { type Regain, VIEW_MS } from "./roles.ts";
import type { Restoration } from "./subscriptions.ts";

/**
 * How a client that lost forge dials it again (`connect(url, {reconnect})`): the backoff and the
 * half-open probe are the web client's own (tools/reconnect/), with every number open to a
 * caller. Each wait doubles from `minMs` to the `maxMs` ceiling and is scaled by a random factor
 * within `jitter` of 1; `tries` failed dials in a row end the client. `clock` and `random` are
 * the machine's unless a test hands in its own.
 */
export interface ReconnectOptions {
  minMs?: number;
  maxMs?: number;
  /** 0.25: each wait is 0.75 to 1.25 times its step. */
  jitter?: number;
  tries?: number;
  /** The quiet after which the client pings (spec: ping: 15 s). */
  quietMs?: number;
  /** How long a ping may go unanswered before the socket is given up: a browser's 65 s, since
   * this client too is handed whole messages only (spec: Reaching it). */
  deadlineMs?: number;
  /** How long a re-attached viewer's first view frame is waited for before the control and
   * pause held on it are said `lost` (10 s), so `reconnected` always comes. */
  viewMs?: number;
  clock?: Clock;
  random?: () => number;
}

/** The SDK's plan: the redial loop's, and the probe's pair. */
export type SdkPlan = RedialPlan & { quietMs: number; deadlineMs: number; viewMs: number };

/** What the caller hears of the link (`onLink`). */
export type LinkEvent =
  /** The socket dropped, or a dial failed (`why`); the next dial is `retryInMs` away. */
  | {
    kind: "reconnecting";
    attempt: number;
    retryInMs: number;
    why: ConnectionClosed | ConnectFailed;
  }
  /**
   * A new socket is open and every subscription the connection held (a follow's, or one sent by
   * hand) was asked for again in the order held and answered: `restored` with its snapshot,
   * `refused` in forge's words (no longer held); then the terminal and browser tab it viewed were
   * attached again: `reattached` (at the size last sent), `unattached` in forge's words (the seat
   * or the tab gone; no longer held); then the control it held of each and a terminal's pause
   * were asked for again: `regained`, or `lost` with why (someone took control meanwhile, the
   * viewer not attached again, forge's refusal, no view frame within `viewMs`). A drop before
   * every answer came says nothing here: a `reconnecting` follows, and the next socket asks for
   * them all again.
   */
  | ({ kind: "reconnected"; attempt: number } & Restoration & Reattachment & Regain);

/** The options with every default filled in: the web client's numbers (tools/reconnect/). */
export function redialPlan(o: ReconnectOptions | true): SdkPlan {
  const given = o === true ? {} : o;
  return {
    minMs: given.minMs ?? BACKOFF.minMs,
    maxMs: given.maxMs ?? BACKOFF.maxMs,
    jitter: given.jitter ?? BACKOFF.jitter,
    tries: given.tries ?? Infinity,
    quietMs: given.quietMs ?? QUIET_MS,
    deadlineMs: given.deadlineMs ?? BROWSER_DEADLINE_MS,
    viewMs: given.viewMs ?? VIEW_MS,
    clock: given.clock ?? MONOTONIC,
    random: given.random ?? Math.random,
  };
}
