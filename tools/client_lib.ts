import { gunzipSync } from "node:zlib";
import { BinaryKind, WireChecker } from "../protocol/mod.ts";

/** One frame as the client received it: parsed JSON for text and kind-3 frames, raw bytes otherwise. */
export type Frame =
  | { type: "json"; data: Record<string, unknown>; compressed: boolean }
  | { type: "binary"; kind: number; bytes: Uint8Array };

/**
 * forge's protocol client: dials `/socket`, keeps every frame in arrival order (inflating kind-3
 * frames in its own read path so order is the socket's), and waits for frames by predicate.
 * People drive the server with it through tools/client.ts; the tests use it as a real client.
 */
export class ForgeClient {
  readonly frames: Frame[] = [];
  /** With `validate`, what every JSON frame that is off protocol/'s schemas got wrong: the
   * envelope, a snapshot's data, an update's fields, a repaired frame, a reply's body. */
  readonly schemaErrors: string[] = [];
  #checker: WireChecker | null = null;
  #waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  #taken = new Set<number>();
  #closed = Promise.withResolvers<CloseEvent>();
  /** Every frame below this index is taken. */
  #first = 0;

  private constructor(readonly socket: WebSocket) {
    socket.binaryType = "arraybuffer";
    socket.onmessage = (e) => this.#push(decodeFrame(e.data));
    socket.onclose = (e) => this.#closed.resolve(e);
  }

  /** Opens a connection; `origin` sets the header a browser would send, `deflate` asks for kind 3. */
  static async connect(
    url: string,
    opts: { origin?: string; deflate?: boolean; validate?: boolean } = {},
  ): Promise<ForgeClient> {
    const target = opts.deflate ? `${url}${url.includes("?") ? "&" : "?"}deflate=1` : url;
    const socket = opts.origin
      ? new WebSocket(target, { headers: { origin: opts.origin } } as unknown as string[])
      : new WebSocket(target);
    const opened = Promise.withResolvers<void>();
    socket.onopen = () => opened.resolve();
    socket.onerror = (e) =>
      opened.reject(new Error(`connect ${url}: ${(e as ErrorEvent).message}`));
    const client = new ForgeClient(socket);
    if (opts.validate) client.#checker = new WireChecker();
    await opened.promise;
    return client;
  }

  send(message: unknown): void {
    this.#checker?.sent(message);
    this.socket.send(JSON.stringify(message));
  }

  sendBinary(bytes: Uint8Array): void {
    this.socket.send(bytes);
  }

  /**
   * The oldest frame not yet taken that matches `pred`, waiting up to `ms` for one to arrive.
   * Taking a frame leaves the frames before it available: a test can wait for a reply and still
   * read the update that arrived ahead of it.
   */
  next(
    pred: (m: Record<string, unknown>) => boolean = () => true,
    ms = 10_000,
  ): Promise<Record<string, unknown>> {
    return this.nextFrame((f) => f.type === "json" && pred(f.data), ms).then((f) =>
      (f as { data: Record<string, unknown> }).data
    );
  }

  nextFrame(pred: (f: Frame) => boolean, ms = 10_000): Promise<Frame> {
    for (let i = this.#first; i < this.frames.length; i++) {
      if (!this.#taken.has(i) && pred(this.frames[i])) return Promise.resolve(this.#take(i));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w.resolve !== done);
        reject(new Error(`no matching frame within ${ms} ms; last frames: ${this.describeTail()}`));
      }, ms);
      const done = (f: Frame) => {
        clearTimeout(timer);
        resolve(f);
      };
      this.#waiters.push({ pred, resolve: done });
    });
  }

  /** The kind of the next JSON frame, for tests that assert order. */
  async nextKind(ms = 10_000): Promise<string> {
    return String((await this.next(() => true, ms)).kind);
  }

  closed(): Promise<CloseEvent> {
    return this.#closed.promise;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.#closed.promise;
  }

  describeTail(n = 5): string {
    return this.frames.slice(-n).map((f) =>
      f.type === "json" ? JSON.stringify(f.data).slice(0, 160) : `<binary kind ${f.kind}>`
    ).join(" | ");
  }

  #push(frame: Frame): void {
    this.frames.push(frame);
    if (this.#checker && frame.type === "json") {
      this.schemaErrors.push(...this.#checker.check(frame.data));
    }
    const index = this.frames.length - 1;
    const waiter = this.#waiters.find((w) => w.pred(frame));
    if (!waiter) return;
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    waiter.resolve(this.#take(index));
  }

  #take(index: number): Frame {
    this.#taken.add(index);
    while (this.#taken.has(this.#first)) this.#taken.delete(this.#first++);
    return this.frames[index];
  }
}

/** Decodes one received WebSocket message into a Frame. */
export function decodeFrame(data: unknown): Frame {
  if (typeof data === "string") return { type: "json", data: JSON.parse(data), compressed: false };
  const bytes = new Uint8Array(data as ArrayBuffer);
  if (bytes[0] === BinaryKind.gzip_json) {
    const text = new TextDecoder().decode(gunzipSync(bytes.subarray(1)));
    return { type: "json", data: JSON.parse(text), compressed: true };
  }
  return { type: "binary", kind: bytes[0], bytes };
}
