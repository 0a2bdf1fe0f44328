import type {
  NotifyChannel,
  NotifyChannelState,
  NotifyTestReply,
  Slot,
} from "../../protocol/mod.ts";
import { slotName } from "../../protocol/mod.ts";
import type { Logger } from "../../server/log.ts";
import type { Channel, Target } from "./channels.ts";
import type { Clock } from "../../server/clock.ts";
import { SendFailure } from "./http.ts";
import type { Push } from "./push.ts";

/** How long one send may take before it counts as failed (a hung server). */
export const ATTEMPT_MS = 15_000;

/** The wait before retry `n` (1, 2, ...): 2 s doubling, at most a minute. */
export function backoffMs(n: number): number {
  return Math.min(60_000, 2_000 * 2 ** (n - 1));
}

interface Sending {
  channel: Channel;
  target: Target;
  push: Push;
  wanted: () => boolean;
  first: number;
}

/**
 * Sends pushes through the channels, each target on its own: a server that is down, slow or
 * refusing delays nothing else (every send is started, never awaited by its caller). A failed
 * send is retried with back-off (`backoffMs`) while `[notify] retry_minutes` has not run out
 * since its first try and the push is still wanted, then dropped with a log record. Every send
 * and failure is logged by channel and host (`notify_sent`, `notify_failed`, `notify_dropped`),
 * never with a token, a topic or an endpoint. Keeps each channel's state for home.
 */
export class Sender {
  readonly #states = new Map<NotifyChannel, { failing: string | null }>();
  /** The armed retries' timers (the clock's handles). */
  readonly #retries = new Set<unknown>();

  constructor(
    private readonly opts: {
      clock: Clock;
      log: Logger;
      channels: readonly Channel[];
      retryMs: () => number;
      /** A channel's state moved. */
      changed: () => void;
      /** What a send nobody awaits threw: logged, so it ends nothing else. */
      crashed: (error: unknown) => void;
    },
  ) {}

  /** Starts the push on every channel that is on. */
  send(push: Push, wanted: () => boolean): void {
    for (const channel of this.opts.channels) {
      if (channel.off() !== null) continue;
      for (const target of channel.targets()) {
        const sending = { channel, target, push, wanted, first: this.opts.clock.now() };
        this.#attempt(sending, 1).catch(this.opts.crashed);
      }
    }
  }

  /**
   * One test push through a channel now, no retries: whether every target took it, and why not.
   * The targets are tried at once, so the answer waits one attempt's deadline at most, however
   * many browsers are subscribed: the asking connection's next messages wait behind it.
   */
  async test(name: NotifyChannel, push: Push): Promise<NotifyTestReply> {
    const channel = this.opts.channels.find((c) => c.name === name)!;
    const off = channel.off();
    if (off !== null) return { ok: false, why: `${name} is off: ${off}` };
    const targets = channel.targets();
    if (targets.length === 0) {
      return { ok: false, why: `${name}: ${channel.note?.() ?? "nowhere to send"}` };
    }
    const failed = await Promise.all(targets.map((target) => this.#once(channel, target, push)));
    const whys = failed.flatMap((f) => (f === null ? [] : [f.why]));
    return whys.length === 0 ? { ok: true, why: null } : { ok: false, why: whys.join("; ") };
  }

  /** A channel's state for home: off (why), failing (why) or ok. */
  state(name: NotifyChannel): NotifyChannelState {
    const channel = this.opts.channels.find((c) => c.name === name);
    const off = channel ? channel.off() : "not built";
    if (off !== null) return { state: "off", why: off };
    const failing = this.#states.get(name)?.failing ?? null;
    return failing !== null
      ? { state: "failing", why: failing }
      : { state: "ok", why: channel?.note?.() ?? null };
  }

  /** Stops every pending retry (shutdown). */
  stop(): void {
    for (const timer of this.#retries) this.opts.clock.clear(timer);
    this.#retries.clear();
  }

  /** One send with its deadline; null when it was taken, else the failure in words. */
  async #once(
    channel: Channel,
    target: Target,
    push: Push,
  ): Promise<{ why: string; final: boolean } | null> {
    const { clock } = this.opts;
    const deadline = new AbortController();
    const timer = clock.set(() =>
      deadline.abort(
        new SendFailure(
          `${channel.name} at ${target.label} did not answer within ${ATTEMPT_MS / 1000} s`,
        ),
      ), ATTEMPT_MS);
    try {
      await target.send(push, deadline.signal);
      this.#mark(channel.name, null);
      this.opts.log.info("notify_sent", {
        channel: channel.name,
        host: target.label,
        seat: seatOf(push.seat),
        kind: push.kind,
        count: push.count,
      });
      return null;
    } catch (err) {
      const why = err instanceof SendFailure
        ? err.message
        : `${channel.name} at ${target.label} failed inside forge; the log has the cause`;
      if (!(err instanceof SendFailure)) {
        this.opts.log.error("notify_send_crashed", { channel: channel.name, error: err });
      }
      // A subscription gone is one browser less, not the channel failing.
      if (!(err instanceof SendFailure && err.gone)) this.#mark(channel.name, why);
      return { why, final: err instanceof SendFailure && err.final };
    } finally {
      clock.clear(timer);
    }
  }

  async #attempt(s: Sending, n: number): Promise<void> {
    const failed = await this.#once(s.channel, s.target, s.push);
    if (failed === null) return;
    const { clock, log } = this.opts;
    const fields = {
      channel: s.channel.name,
      host: s.target.label,
      seat: seatOf(s.push.seat),
      reason: failed.why,
    };
    const delay = backoffMs(n);
    if (failed.final) {
      log.warn("notify_failed", { ...fields, attempt: n, retry: false });
      return;
    }
    if (clock.now() + delay - s.first > this.opts.retryMs()) {
      log.warn("notify_dropped", { ...fields, attempts: n, after_ms: clock.now() - s.first });
      return;
    }
    log.warn("notify_failed", { ...fields, attempt: n, retry_in_ms: delay });
    const timer = clock.set(() => {
      this.#retries.delete(timer);
      if (!s.wanted()) {
        log.info("notify_withdrawn", { channel: s.channel.name, seat: seatOf(s.push.seat) });
        return;
      }
      this.#attempt(s, n + 1).catch(this.opts.crashed);
    }, delay);
    this.#retries.add(timer);
  }

  #mark(name: NotifyChannel, failing: string | null): void {
    const before = this.#states.get(name)?.failing ?? null;
    this.#states.set(name, { failing });
    if (before !== failing) this.opts.changed();
  }
}

function seatOf(slot: Slot | null): string | null {
  return slot ? slotName(slot) : null;
}
