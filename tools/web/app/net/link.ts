import type { ClientMessage, Wire } from "../../../../protocol/mod.ts";
import { BinaryKind } from "../../../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../../../server/clock.ts";
import { BACKOFF, Redialer } from "../../../reconnect/backoff.ts";
import { BROWSER_DEADLINE_MS, Probe, QUIET_MS } from "../../../reconnect/probe.ts";

/** spec: A client probes too: ping after 15 s of quiet; a browser's deadline is 65 s. */
export { QUIET_MS };
export const DEADLINE_MS = BROWSER_DEADLINE_MS;

/** The probe's pair and the clock its timers run on (a test hands in one it moves by hand). */
export interface LinkTiming {
  quietMs: number;
  deadlineMs: number;
  clock?: Clock;
}

export type LinkState = "connecting" | "open" | "down";

export interface LinkEvents {
  /** A new socket opened; the greeting follows as an ordinary message. */
  onOpen(): void;
  /**
   * A whole JSON message, as parsed: JSON by construction (JSON.parse yields nothing else), not
   * yet checked against protocol/ (net/inbound.ts checks).
   */
  onMessage(message: Wire): void;
  /** A binary frame that is not kind 3 (terminal output, browser frames). */
  onBinary(bytes: Uint8Array): void;
  onState(state: LinkState, retryInMs: number | null): void;
}

/**
 * The page's one socket to forge: dialled with `deflate=1` (kind-3 frames inflated in order in its
 * own read path), probed with `ping` after 15 s of quiet and closed when no frame answers within
 * 65 s, and redialled with backoff whenever it goes down (the probe and the backoff are the SDK's
 * too: tools/reconnect/). spec: Reaching it; The greeting; ping; Binary messages > 3.
 *
 * A socket whose probe expired is given up at once: the browser's `close()` on a half-open
 * socket waits out its own closing handshake (Chromium's is a minute) before `onclose` fires, so
 * waiting for it would put the redial a minute past the spec's worst case of about 80 s
 * (spec: The socket > Reaching it).
 */
export class Link {
  #socket: WebSocket | null = null;
  /** The probe of the socket open now. */
  #probe: Probe | null = null;
  readonly #redialer: Redialer<void>;
  readonly #clock: Clock;
  /** Inbound frames are handed on in socket order even though inflating one is asynchronous. */
  #chain: Promise<void> = Promise.resolve();
  #pingable = true;
  #stopped = false;
  /** Kind-3 frames inflated so far (the browser tests read it). */
  inflated = 0;

  /** `timing` is the spec's pair unless a test shortens it. */
  constructor(
    readonly url: string,
    private readonly events: LinkEvents,
    private readonly timing: LinkTiming = { quietMs: QUIET_MS, deadlineMs: DEADLINE_MS },
  ) {
    this.#clock = timing.clock ?? MONOTONIC;
    this.#redialer = new Redialer<void>({
      ...BACKOFF,
      random: Math.random,
      tries: Infinity,
      clock: this.#clock,
    }, {
      dial: () => this.#dial(),
      waiting: (_attempt, retryInMs) => this.events.onState("down", retryInMs),
      opened: () => {},
      gaveUp: () => {},
    });
  }

  start(): void {
    this.#dial().catch(() => this.#redialer.dropped());
  }

  /** Whether the server is new enough to answer `ping` (spec: never asked of an older one). */
  set pingable(ok: boolean) {
    this.#pingable = ok;
  }

  send(message: ClientMessage): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  sendBinary(bytes: Uint8Array): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(bytes as Uint8Array<ArrayBuffer>);
    return true;
  }

  /** A page returning from the background probes at once (spec: ping). */
  probe(): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#probe?.now();
  }

  /** The network came back (the browser's `online`): a link waiting out its backoff dials now. */
  redialNow(): void {
    if (this.#socket === null) this.#redialer.now();
  }

  /** Drops the socket as a network would; the ordinary redial follows. */
  drop(): void {
    this.#socket?.close();
  }

  stop(): void {
    this.#stopped = true;
    this.#redialer.stop();
    this.#probe?.stop();
    this.#socket?.close();
  }

  /** Dials a socket: settles when it opens, rejects when it closes first (the loop waits). */
  #dial(): Promise<void> {
    const url = `${this.url}${this.url.includes("?") ? "&" : "?"}deflate=1`;
    this.events.onState("connecting", null);
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    this.#socket = socket;
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    socket.onopen = () => {
      resolve();
      this.#probe = new Probe(
        { quietMs: this.timing.quietMs, deadlineMs: this.timing.deadlineMs, clock: this.#clock },
        { ping: () => this.#ping(), expired: () => this.#giveUp(socket) },
      );
      this.events.onState("open", null);
      this.events.onOpen();
      this.#probe.heard();
    };
    socket.onmessage = (e) => {
      this.#probe?.heard();
      const data = e.data;
      this.#chain = this.#chain.then(() => this.#deliver(data)).catch((err) =>
        console.error("forge: a frame could not be read", err)
      );
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      if (this.#probe === null) {
        // Closed before it opened: a dial that failed, the redial loop's to answer.
        this.#socket = null;
        if (this.#stopped) resolve();
        else reject();
      } else this.#lost(socket);
    };
    return promise;
  }

  /** `socket` is gone (closed, or given up on): forget it and redial after the backoff. */
  #lost(socket: WebSocket): void {
    if (this.#socket !== socket) return;
    this.#socket = null;
    this.#probe?.stop();
    this.#probe = null;
    if (!this.#stopped) this.#redialer.dropped();
  }

  /** The probe expired: nothing more is read from `socket`, and the redial does not wait. */
  #giveUp(socket: WebSocket): void {
    socket.onmessage = null;
    socket.onclose = null;
    socket.close();
    this.#lost(socket);
  }

  async #deliver(data: unknown): Promise<void> {
    if (typeof data === "string") {
      return this.events.onMessage(JSON.parse(data));
    }
    // binaryType is "arraybuffer": any other frame is not this socket's to read.
    if (!(data instanceof ArrayBuffer)) return;
    const bytes = new Uint8Array(data);
    if (bytes[0] !== BinaryKind.gzip_json) return this.events.onBinary(bytes);
    this.inflated++;
    const stream = new Blob([bytes.subarray(1)]).stream().pipeThrough(
      new DecompressionStream("gzip"),
    );
    this.events.onMessage(JSON.parse(await new Response(stream).text()));
  }

  /** The probe's ping: none to a server too old to answer it (spec: ping). */
  #ping(): boolean {
    return this.#pingable && this.send({ kind: "ping" });
  }
}
