import { WireChecker } from "../protocol/mod.ts";

/**
 * A WebSocket client written on a raw TCP connection, for the keepalive tests: unlike every real
 * client it can refuse to answer pings, and it can stop reading (a peer that vanished, or a slow
 * reader) so the server's bounds can be watched from the far side. RFC 6455 framing, minimal.
 * Like every test client it checks each text frame against protocol/'s schemas; the harness
 * fails the test whose server one of its raw sockets read a frame off the schema from.
 */
export interface RawFrame {
  opcode: number;
  payload: Uint8Array;
}

/** A throttled reader's read size: small, so its pace is even within a frame. */
const PACED_READ = 16 * 1024;

export class RawSocket {
  /** Every raw socket opened, for the harness to read their schema errors by port. */
  static readonly opened: RawSocket[] = [];
  readonly frames: RawFrame[] = [];
  /** What the text frames got wrong against protocol/'s schemas. */
  readonly schemaErrors: string[] = [];
  readonly #checker = new WireChecker();
  pings = 0;
  #paused: PromiseWithResolvers<void> | null = null;
  /** A steady reader's pace (see {@link throttle}); null reads as fast as bytes arrive. */
  #pace: { bytesPerSecond: number; since: number; taken: number } | null = null;
  #closed = Promise.withResolvers<string>();
  #buf = new Uint8Array(0);

  private constructor(
    private readonly conn: Deno.TcpConn,
    private answerPings: boolean,
    readonly port: number,
  ) {
    RawSocket.opened.push(this);
  }

  /** The schema errors of every raw socket opened to `port`. */
  static schemaErrorsFor(port: number): string[] {
    return RawSocket.opened.filter((s) => s.port === port).flatMap((s) => s.schemaErrors);
  }

  static async open(
    port: number,
    opts: { answerPings: boolean; path?: string },
  ): Promise<RawSocket> {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const req =
      `GET ${
        opts.path ?? "/socket"
      } HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    await conn.write(new TextEncoder().encode(req));
    const sock = new RawSocket(conn, opts.answerPings, port);
    await sock.#readHeaders();
    sock.#loop();
    return sock;
  }

  /** This end's port: names the connection in /proc/net/tcp. */
  get localPort(): number {
    return this.conn.localAddr.port;
  }

  /** Stops reading from the socket until `resume`; the server's writes back up behind it. */
  pause(): void {
    this.#paused ??= Promise.withResolvers<void>();
  }

  resume(): void {
    this.#paused?.resolve();
    this.#paused = null;
  }

  /**
   * Reads at most `bytesPerSecond` from now on, evenly (a reader on a slow link): each read
   * takes a small chunk and waits until the bytes taken so far are due at that rate.
   */
  throttle(bytesPerSecond: number): void {
    this.#pace = { bytesPerSecond, since: performance.now(), taken: 0 };
  }

  /** Resolves with why the connection ended: `close <code>` or `eof`. */
  closed(): Promise<string> {
    return this.#closed.promise;
  }

  async sendText(text: string): Promise<void> {
    try {
      this.#checker.sent(JSON.parse(text));
    } catch {
      // Not JSON: a test of the inbound bounds. Nothing to note.
    }
    await this.#send(0x1, new TextEncoder().encode(text));
  }

  texts(): string[] {
    return this.frames.filter((f) => f.opcode === 0x1).map((f) =>
      new TextDecoder().decode(f.payload)
    );
  }

  close(): void {
    try {
      this.conn.close();
    } catch {
      // Already closed.
    }
  }

  async #readHeaders(): Promise<void> {
    while (true) {
      const text = new TextDecoder().decode(this.#buf);
      const end = text.indexOf("\r\n\r\n");
      if (end >= 0) {
        if (!text.startsWith("HTTP/1.1 101")) {
          throw new Error(`handshake refused: ${text.split("\r\n")[0]}`);
        }
        this.#buf = this.#buf.slice(new TextEncoder().encode(text.slice(0, end + 4)).length);
        return;
      }
      if (!(await this.#fill())) throw new Error("eof during handshake");
    }
  }

  async #fill(): Promise<boolean> {
    const pace = this.#pace;
    if (pace) {
      const due = pace.since + pace.taken * 1000 / pace.bytesPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const chunk = new Uint8Array(pace ? PACED_READ : 64 * 1024);
    const n = await this.conn.read(chunk).catch(() => null);
    if (n === null) return false;
    if (pace) pace.taken += n;
    const next = new Uint8Array(this.#buf.length + n);
    next.set(this.#buf);
    next.set(chunk.subarray(0, n), this.#buf.length);
    this.#buf = next;
    return true;
  }

  async #loop(): Promise<void> {
    try {
      while (true) {
        if (this.#paused) await this.#paused.promise;
        const frame = this.#parse();
        if (!frame) {
          if (!(await this.#fill())) return this.#closed.resolve("eof");
          continue;
        }
        if (frame.opcode === 0x9) {
          this.pings++;
          if (this.answerPings) await this.#send(0xa, frame.payload);
        } else if (frame.opcode === 0x8) {
          const code = frame.payload.length >= 2
            ? (frame.payload[0] << 8) | frame.payload[1]
            : 1005;
          return this.#closed.resolve(`close ${code}`);
        } else {
          this.frames.push(frame);
          if (frame.opcode === 0x1) this.#check(frame.payload);
        }
      }
    } catch (err) {
      this.#closed.resolve(`error ${(err as Error).message}`);
    }
  }

  #check(payload: Uint8Array): void {
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      this.schemaErrors.push("a text frame that is not JSON");
      return;
    }
    this.schemaErrors.push(...this.#checker.check(data));
  }

  #parse(): RawFrame | null {
    const b = this.#buf;
    if (b.length < 2) return null;
    let len = b[1] & 0x7f;
    let off = 2;
    if (len === 126) {
      if (b.length < 4) return null;
      len = (b[2] << 8) | b[3];
      off = 4;
    } else if (len === 127) {
      if (b.length < 10) return null;
      len = Number(new DataView(b.buffer, b.byteOffset + 2, 8).getBigUint64(0));
      off = 10;
    }
    if (b.length < off + len) return null;
    const frame = { opcode: b[0] & 0x0f, payload: b.slice(off, off + len) };
    this.#buf = b.slice(off + len);
    return frame;
  }

  async #send(opcode: number, payload: Uint8Array): Promise<void> {
    const mask = crypto.getRandomValues(new Uint8Array(4));
    const head = payload.length < 126
      ? [0x80 | opcode, 0x80 | payload.length]
      : [0x80 | opcode, 0x80 | 126, payload.length >> 8, payload.length & 0xff];
    const out = new Uint8Array(head.length + 4 + payload.length);
    out.set(head);
    out.set(mask, head.length);
    for (let i = 0; i < payload.length; i++) out[head.length + 4 + i] = payload[i] ^ mask[i % 4];
    await this.conn.write(out);
  }
}
