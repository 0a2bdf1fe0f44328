import type { ClientMessage, Wire } from "../../../../protocol/mod.ts";
import { BinaryKind } from "../../../../protocol/mod.ts";
import { type Clock, MONOTONIC } from "../../../../server/clock.ts";

/** spec: A client probes too: ping after 15 s of quiet; a browser's deadline is 65 s. */
export const QUIET_MS = 15_000;
export const DEADLINE_MS = 65_000;
/** Redial backoff: doubling from half a second to a ten-second ceiling, with jitter. */
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

type Timer = unknown;

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
 * 65 s, and redialled with backoff whenever it goes down. spec: Reaching it; The greeting;
 * ping; Binary messages > 3.
 *
 * A socket whose probe expired is given up at once: the browser's `close()` on a half-open
 * socket waits out its own closing handshake (Chromium's is a minute) before `onclose` fires, so
 * waiting for it would put the redial a minute past the spec's worst case of about 80 s
 * (spec: The socket > Reaching it).
 */
export class Link {
  #socket: WebSocket | null = null;
  #attempt = 0;
  #quiet: Timer;
  #deadline: Timer;
  #retry: Timer;
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
  }

  start(): void {
    this.#dial();
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
    if (this.#socket?.readyState === WebSocket.OPEN) this.#ping();
  }

  /** The network came back (the browser's `online`): a link waiting out its backoff dials now. */
  redialNow(): void {
    if (this.#socket !== null || this.#stopped) return;
    this.#clock.clear(this.#retry);
    this.#attempt = 0;
    this.#dial();
  }

  /** Drops the socket as a network would; the ordinary redial follows. */
  drop(): void {
    this.#socket?.close();
  }

  stop(): void {
    this.#stopped = true;
    this.#clock.clear(this.#retry);
    this.#clock.clear(this.#quiet);
    this.#clock.clear(this.#deadline);
    this.#socket?.close();
  }

  #dial(): void {
    const url = `${this.url}${this.url.includes("?") ? "&" : "?"}deflate=1`;
    this.events.onState("connecting", null);
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    this.#socket = socket;
    socket.onopen = () => {
      this.#attempt = 0;
      this.events.onState("open", null);
      this.events.onOpen();
      this.#heard();
    };
    socket.onmessage = (e) => {
      this.#heard();
      const data = e.data;
      this.#chain = this.#chain.then(() => this.#deliver(data)).catch((err) =>
        console.error("forge: a frame could not be read", err)
      );
    };
    socket.onclose = () => this.#lost(socket);
  }

  /** `socket` is gone (closed, or given up on): forget it and redial after the backoff. */
  #lost(socket: WebSocket): void {
    if (this.#socket !== socket) return;
    this.#socket = null;
    this.#clock.clear(this.#quiet);
    this.#clock.clear(this.#deadline);
    this.#deadline = undefined;
    if (this.#stopped) return;
    const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.#attempt++) *
      (0.75 + Math.random() * 0.5);
    this.events.onState("down", Math.round(wait));
    this.#retry = this.#clock.set(() => this.#dial(), wait);
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

  /** Any whole frame answers the probe and restarts the quiet (spec: a browser's quiet). */
  #heard(): void {
    this.#clock.clear(this.#deadline);
    this.#deadline = undefined;
    this.#clock.clear(this.#quiet);
    this.#quiet = this.#clock.set(() => this.#ping(), this.timing.quietMs);
  }

  #ping(): void {
    // A probe already out is neither asked again nor re-armed (spec: ping).
    if (this.#deadline !== undefined || !this.#pingable) return;
    if (!this.send({ kind: "ping" })) return;
    const socket = this.#socket!;
    this.#deadline = this.#clock.set(() => this.#giveUp(socket), this.timing.deadlineMs);
  }
}
