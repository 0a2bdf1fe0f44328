import type { ClientMessage, Slot } from "../../../../protocol/mod.ts";
import type { Clock } from "../../../../server/clock.ts";

/** How long a `more` may go unanswered before it is asked again. */
export const WALK_BOUND_MS = 30_000;
/** Tries after the first before the walk gives up and says so. */
export const WALK_RETRIES = 4;
/** The wait before the n-th retry: 1 s, doubling, to 16 s. */
export const walkBackoffMs = (n: number) => Math.min(16_000, 1_000 * 2 ** (n - 1));

/** What the chat draws of the walk. */
export interface WalkState {
  /** A `more` is out (or about to be asked again): the edge says the page is reading. */
  walking: boolean;
  /** The walk gave up, in words; a Retry starts it again. */
  walkFailed: string | null;
}

/**
 * The walk up a seat's history, one `more` at a time (spec: more). A page that does not come -
 * refused, not sent, or not answered within the bound - is asked again after a backoff, and
 * after the last try the walk stops and says why, so the top of the conversation never sits on
 * "Reading earlier turns…" for ever.
 */
export class HistoryWalk {
  #out: unknown = undefined;
  #retry: unknown = undefined;
  #tries = 0;

  constructor(
    private readonly state: WalkState,
    private readonly send: (m: ClientMessage) => boolean,
    private readonly changed: () => void,
    private readonly clock: Clock,
  ) {}

  /** Asks for `turns` turns above `cursor` unless one is out, a retry waits, or it gave up. */
  up(seat: Slot, cursor: string, turns: number): void {
    if (this.#out !== undefined || this.#retry !== undefined || this.state.walkFailed) return;
    this.state.walking = true;
    const sent = this.send({ kind: "more", conversation: seat, before: cursor, turns });
    if (!sent) {
      return this.#failed("the connection to forge is down", () => this.up(seat, cursor, turns));
    }
    this.#out = this.clock.set(() => {
      this.#out = undefined;
      this.#failed(
        `forge did not send them within ${WALK_BOUND_MS / 1000} s`,
        () => this.up(seat, cursor, turns),
      );
    }, WALK_BOUND_MS);
    this.changed();
  }

  /** The page arrived. */
  landed(): void {
    this.clock.clear(this.#out);
    this.#out = undefined;
    this.#tries = 0;
    this.state.walking = false;
  }

  /** The server refused the `more` (an error naming it), in its words. */
  refused(why: string, again: () => void): void {
    this.clock.clear(this.#out);
    this.#out = undefined;
    this.#failed(why, again);
  }

  /** A new seat, a new connection or a Retry: nothing is out and nothing is held against it. */
  reset(): void {
    this.clock.clear(this.#out);
    this.clock.clear(this.#retry);
    this.#out = undefined;
    this.#retry = undefined;
    this.#tries = 0;
    this.state.walking = false;
    this.state.walkFailed = null;
  }

  #failed(why: string, again: () => void): void {
    this.#tries++;
    if (this.#tries > WALK_RETRIES) {
      this.state.walking = false;
      this.state.walkFailed = `The earlier turns could not be read (${why}); ` +
        `gave up after ${this.#tries} tries.`;
    } else {
      this.#retry = this.clock.set(() => {
        this.#retry = undefined;
        again();
      }, walkBackoffMs(this.#tries));
    }
    this.changed();
  }
}
