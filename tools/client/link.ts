import { Redialer } from "../reconnect/backoff.ts";
import { Probe } from "../reconnect/probe.ts";
import { opened, socketTo } from "./dial.ts";
import { ConnectFailed, ConnectionClosed } from "./errors.ts";
import { decodeFrame, type Frame } from "./frames.ts";
import { type LinkEvent, type ReconnectOptions, redialPlan, type SdkPlan } from "./redial.ts";

/** How the socket is reached: the header, the frames asked for, and whether it is redialled. */
export interface LinkOptions {
  origin?: string;
  deflate?: boolean;
  reconnect?: ReconnectOptions | true;
}

/** What the link tells the client it carries frames for. */
export interface LinkOwner {
  arrived(frame: Frame): void;
  /** The socket dropped and a redial runs: whatever waited on this socket's answers fails. */
  dropped(down: ConnectionClosed): void;
  /** A new socket is open (dial number `attempt`): ask again for what the old one carried. */
  reopened(attempt: number): void;
  /** The link is over (closed by either side, or every redial failed). */
  ended(code: number, reason: string): void;
  /** Send a ping of the client's own (the quiet probe's). */
  probe(): void;
  event(e: LinkEvent): void;
}

/**
 * The client's socket to forge, one after another when it reconnects. With `reconnect`, a drop
 * starts the redial loop (tools/reconnect/) rather than ending the client, and the link probes: after
 * `quietMs` with no frame it has the client ping, and a socket that answers nothing within
 * `deadlineMs` is given up as dropped, since a half-open socket (a locked phone, a network gone)
 * never delivers a close. spec: The socket > Reaching it ("A client probes too, with ping"); ping.
 */
export class ForgeLink {
  #socket: WebSocket;
  #down: ConnectionClosed | null = null;
  #ending: ConnectionClosed | null = null;
  #closed = Promise.withResolvers<CloseEvent>();
  #redialer: Redialer<ConnectionClosed | ConnectFailed> | null = null;
  #plan: SdkPlan | null = null;
  /** The probe of the socket open now (with `reconnect` only). */
  #probe: Probe | null = null;
  /** The redial under way: the number of the dial the loop waits to make. */
  #attempt = 0;

  private constructor(
    readonly url: string,
    private readonly opts: LinkOptions,
    private readonly owner: LinkOwner,
  ) {
    // Listening from the first moment: the greeting can land with the open itself.
    this.#socket = this.#attach(socketTo(this.#target, opts.origin));
    if (opts.reconnect) {
      const plan = this.#plan = redialPlan(opts.reconnect);
      this.#redialer = new Redialer<ConnectionClosed | ConnectFailed>(plan, {
        dial: () => this.#redial(),
        waiting: (attempt, retryInMs, why) => {
          this.#attempt = attempt;
          owner.event({ kind: "reconnecting", attempt, retryInMs, why });
        },
        // Said by the owner once the new socket answered what it asked again (reopened).
        opened: () => {},
        // A dial nothing answered may answer later; one forge refused with a status will not.
        final: (why) => why instanceof ConnectFailed && why.status !== null,
        gaveUp: (why) => this.#gaveUp(why as ConnectFailed),
      });
    }
  }

  /** Opens the first socket; one forge refuses rejects with a ConnectFailed saying why. */
  static async open(url: string, opts: LinkOptions, owner: LinkOwner): Promise<ForgeLink> {
    const link = new ForgeLink(url, opts, owner);
    await opened(link.socket, link.#target, opts.origin);
    link.#probeAnew();
    return link;
  }

  get socket(): WebSocket {
    return this.#socket;
  }

  /** Whether a socket is open now (false while a redial runs, and once closed). */
  get isOpen(): boolean {
    return this.#ending === null && this.#down === null;
  }

  get isClosed(): boolean {
    return this.#ending !== null;
  }

  /** Whether a dropped socket is dialled again. */
  get reconnects(): boolean {
    return this.#redialer !== null;
  }

  /** Throws the ConnectionClosed that says why `what` cannot be sent now. */
  refuse(what: string): void {
    const e = this.#ending;
    if (e) throw new ConnectionClosed(e.code, e.reason, `${what} was not sent`);
    const down = this.#down;
    if (down) {
      throw new ConnectionClosed(down.code, down.reason, `${what} was not sent (redialling forge)`);
    }
  }

  closed(): Promise<CloseEvent> {
    return this.#closed.promise;
  }

  async close(): Promise<void> {
    this.#redialer?.stop();
    this.#stopProbe();
    const open = this.#socket.readyState !== WebSocket.CLOSED;
    // Down between sockets, nothing will fire a close: this is the end.
    if (this.#down || !open) this.#end(new CloseEvent("close", closedHere));
    if (open) {
      this.#endOnly(closedHere.code, closedHere.reason);
      this.#socket.close();
    }
    await this.#closed.promise;
  }

  get #target(): string {
    const url = this.url;
    return this.opts.deflate ? `${url}${url.includes("?") ? "&" : "?"}deflate=1` : url;
  }

  #attach(socket: WebSocket): WebSocket {
    socket.onmessage = (e) => {
      if (socket !== this.#socket) return;
      this.#heard();
      this.owner.arrived(decodeFrame(e.data));
    };
    socket.onclose = (e) => {
      // A dial that failed is the redial loop's to answer; an old socket is nobody's.
      if (socket !== this.#socket || (this.#down && this.#ending === null)) return;
      if (this.#redialer && this.#ending === null) return this.#dropped(e.code, e.reason);
      this.#end(e);
    };
    return socket;
  }

  #dropped(code: number, reason: string): void {
    this.#stopProbe();
    this.#down = new ConnectionClosed(code, reason, "the connection dropped");
    this.owner.dropped(this.#down);
    this.#redialer!.dropped(this.#down);
  }

  async #redial(): Promise<void> {
    const socket = this.#attach(socketTo(this.#target, this.opts.origin));
    this.#socket = socket;
    await opened(socket, this.#target, this.opts.origin);
    if (this.#ending) return socket.close();
    this.#down = null;
    this.#probeAnew();
    this.owner.reopened(this.#attempt);
  }

  #gaveUp(why: ConnectFailed): void {
    const last = this.#down!;
    const reason = `${last.reason ? `${last.reason}; ` : ""}${why.message}`;
    this.#end(new CloseEvent("close", { code: last.code, reason }));
  }

  /** A new socket gets a probe of its own (spec: ping); it starts counting the quiet now. */
  #probeAnew(): void {
    const plan = this.#plan;
    if (!plan) return;
    this.#stopProbe();
    const socket = this.#socket;
    const probe = this.#probe = new Probe(plan, {
      ping: () => {
        if (!this.isOpen || socket !== this.#socket) return false;
        this.owner.probe();
        return true;
      },
      expired: () => {
        // Given up at once: a half-open socket's own close would wait out its closing handshake.
        if (socket !== this.#socket || !this.isOpen) return;
        socket.onmessage = null;
        socket.onclose = null;
        socket.close();
        this.#dropped(1006, "forge answered no probe");
      },
    });
    probe.heard();
  }

  /** Any frame answers the probe and restarts the quiet (spec: ping: "Any inbound traffic"). */
  #heard(): void {
    this.#probe?.heard();
  }

  #stopProbe(): void {
    this.#probe?.stop();
    this.#probe = null;
  }

  #endOnly(code: number, reason: string): void {
    if (this.#ending) return;
    this.#ending = new ConnectionClosed(code, reason, "closing");
    this.#stopProbe();
    this.owner.ended(code, reason);
  }

  #end(e: CloseEvent): void {
    this.#endOnly(e.code, e.reason);
    this.#closed.resolve(e);
  }
}

const closedHere = { code: 1000, reason: "closed by this client" };
