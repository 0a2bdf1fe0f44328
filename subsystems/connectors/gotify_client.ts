import { z } from "zod";
import type { Logger } from "../../server/log.ts";
import {
  type KeptFile,
  netWords,
  ownWords,
  schemaParse,
  type StateKeeper,
} from "../../server/subsystem.ts";

/** A message as Gotify's `/stream` and `/message` carry it (gotify/server model.MessageExternal). */
export const GotifyMessage = z.object({
  id: z.number().int(),
  appid: z.number().int(),
  message: z.string(),
  title: z.string().optional().default(""),
  priority: z.number().int().optional().default(0),
  date: z.string(),
}).passthrough();
export type GotifyMessage = z.infer<typeof GotifyMessage>;

const Paged = z.object({
  paging: z.object({
    size: z.number(),
    since: z.number(),
    limit: z.number(),
    next: z.string().optional(),
  })
    .passthrough(),
  messages: z.array(GotifyMessage),
});
const Apps = z.array(z.object({ id: z.number().int(), name: z.string() }).passthrough());
const Cursor = z.object({ last_id: z.number().int().nullable() });
type Cursor = z.infer<typeof Cursor>;

/** The cursor file, kept by forge's keeper: how far the stream was handed on. */
export function cursorFile(keeper: StateKeeper, path: string): KeptFile<Cursor> {
  return keeper.file(path, {
    area: "the Gotify connector",
    parse: schemaParse(Cursor, "a Gotify cursor"),
  });
}

export interface GotifyClientOptions {
  url: string;
  token: string;
  /**
   * The id of the last message handled (`cursorFile`), so a restart neither loses nor repeats.
   * While it is damaged the client does not connect: it could not tell new messages from old.
   */
  cursor: KeptFile<Cursor>;
  /** Runs once per new message, in id order, with its application's name. */
  onMessage: (message: GotifyMessage, app: string) => void;
  onState: () => void;
  /** Where a failure's records go; a cause that is not forge's sentence is logged here only. */
  log: Logger;
  /** Reconnect back-off: first wait and ceiling (the original's 500 ms doubling to 30 s). */
  backoffMs?: { first: number; max: number };
  /** How often the liveness probe (`GET /health`) runs while the stream is open. */
  probeMs?: number;
}

/**
 * forge's own Gotify client (no npm Gotify client subscribes). It holds `/stream` open
 * with the client token, and after every (re)connect pages `/message` back to the last id it
 * handled, so messages sent while it was away arrive once, in order, and none twice. Deno's
 * WebSocket shows no pings, so a periodic `GET /health` tells a dead server from a quiet one.
 */
export class GotifyClient {
  connected = false;
  error: string | null = null;
  #lastId: number | null = null;
  #apps = new Map<number, string>();
  #stopped = false;
  #socket: WebSocket | null = null;
  #wake: (() => void) | null = null;
  #running: Promise<void> | null = null;
  readonly #base: string;

  constructor(private readonly opts: GotifyClientOptions) {
    this.#base = opts.url.replace(/\/+$/, "");
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#socket?.close(1000, "forge stopping");
    this.#wake?.();
    await this.#running;
  }

  /** `GET /application`: the names an agent subscribes by. */
  async apps(): Promise<string[]> {
    await this.#refreshApps();
    return [...this.#apps.values()];
  }

  /** The newest messages (up to 200), newest first, with their application names. */
  async recent(): Promise<{ message: GotifyMessage; app: string }[]> {
    await this.#refreshApps();
    const page = await this.#page("/message?limit=200");
    return page.messages.map((m) => ({
      message: m,
      app: this.#apps.get(m.appid) ?? `#${m.appid}`,
    }));
  }

  async #loop(): Promise<void> {
    const { first, max } = this.opts.backoffMs ?? { first: 500, max: 30_000 };
    let wait = first;
    const read = await this.opts.cursor.read();
    if (read.state === "read") this.#lastId = read.value.last_id;
    while (!this.#stopped) {
      const openedAt = Date.now();
      try {
        const mended = await this.opts.cursor.writable();
        if (mended) this.#lastId = mended.state === "read" ? mended.value.last_id : null;
        await this.#session();
      } catch (err) {
        // Home shows this sentence: forge's own, never a library's (the log keeps that cause).
        this.error = ownWords(err, {
          log: this.opts.log,
          event: "gotify_client_threw",
          fallback:
            `the Gotify connection to ${this.#base} failed inside forge; the log has the cause`,
        });
        this.opts.log.warn("gotify_connection_failed", { error: this.error });
      }
      this.#setConnected(false);
      if (this.#stopped) break;
      // A stream that stayed up a while was healthy: start the back-off over (the original's 5 s).
      if (Date.now() - openedAt > 5_000) wait = first;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.#wake = () => (clearTimeout(timer), resolve());
      });
      wait = Math.min(wait * 2, max);
    }
  }

  /** One connection: open the stream, catch up, hand on what streams, until it closes. */
  async #session(): Promise<void> {
    await this.#refreshApps();
    const ws = `${this.#base.replace(/^http/, "ws")}/stream`;
    // Deno's WebSocket takes headers, so the token never sits in a URL a log could print.
    const socket = new (WebSocket as unknown as new (
      url: string,
      opts: { headers: Record<string, string> },
    ) => WebSocket)(ws, { headers: { "X-Gotify-Key": this.opts.token } });
    this.#socket = socket;
    let chain: Promise<void> = Promise.resolve();
    const queue = (fn: () => Promise<void>) => {
      chain = chain.then(fn).catch((err) => {
        this.opts.log.warn("gotify_message_failed", { error: (err as Error).message });
        socket.close(4000, "catch-up failed");
      });
    };
    const closed = new Promise<string>((resolve) => {
      socket.onclose = (e) =>
        resolve(`the stream closed (${e.code}${e.reason ? ` ${e.reason}` : ""})`);
    });
    const opened = new Promise<boolean>((resolve) => {
      socket.onopen = () => resolve(true);
      socket.onerror = () => resolve(false);
      closed.then(() => resolve(false));
    });
    socket.onmessage = (e) => {
      // A frame that is not a message is logged and skipped: it never throws out of the handler.
      let parsed;
      try {
        parsed = GotifyMessage.safeParse(JSON.parse(String(e.data)));
      } catch {
        parsed = null; // not JSON: refused below with the same words as a wrong shape
      }
      if (parsed?.success) queue(() => this.#handle(parsed.data));
      else this.opts.log.warn("gotify_frame_unreadable", { bytes: String(e.data).length });
    };
    if (!(await opened)) {
      socket.close();
      throw new Error(`could not open ${ws}: ${await closed}`);
    }
    // Frames that stream in during the catch-up queue behind it and are skipped if it had them.
    queue(() => this.#catchUp());
    await chain;
    if (socket.readyState === WebSocket.OPEN) {
      this.error = null;
      this.#setConnected(true);
    }
    const probe = setInterval(() => {
      this.#get("/health").catch((err) => {
        this.opts.log.warn("gotify_probe_failed", { error: (err as Error).message });
        socket.close(4001, "health probe failed");
      });
    }, this.opts.probeMs ?? 15_000);
    try {
      const why = await closed;
      if (!this.#stopped) throw new Error(why);
    } finally {
      clearInterval(probe);
      await chain;
    }
  }

  async #catchUp(): Promise<void> {
    if (this.#lastId === null) {
      // First run: start from the newest message; what came before forge is not news.
      const page = await this.#page("/message?limit=1");
      await this.#advance(page.messages[0]?.id ?? 0);
      return;
    }
    const missed: GotifyMessage[] = [];
    let path = "/message?limit=100";
    for (;;) {
      const page = await this.#page(path);
      missed.push(...page.messages.filter((m) => m.id > this.#lastId!));
      const oldest = page.messages.at(-1)?.id ?? 0;
      if (!page.paging.next || oldest <= this.#lastId) break;
      path = `/message?limit=100&since=${page.paging.since}`;
    }
    for (const m of missed.sort((a, b) => a.id - b.id)) await this.#handle(m);
  }

  async #handle(m: GotifyMessage): Promise<void> {
    if (this.#lastId !== null && m.id <= this.#lastId) return;
    if (!this.#apps.has(m.appid)) {
      // Without the name the message still goes on, under its application's number.
      await this.#refreshApps().catch((err) =>
        this.opts.log.warn("gotify_apps_unread", { error: (err as Error).message })
      );
    }
    this.opts.onMessage(m, this.#apps.get(m.appid) ?? `#${m.appid}`);
    await this.#advance(m.id);
  }

  async #advance(id: number): Promise<void> {
    this.#lastId = id;
    await this.opts.cursor.write({ last_id: id });
  }

  async #refreshApps(): Promise<void> {
    const apps = expect(
      Apps,
      await this.#get("/application"),
      "/application",
      "an application list",
    );
    this.#apps = new Map(apps.map((a) => [a.id, a.name]));
  }

  async #page(path: string): Promise<z.infer<typeof Paged>> {
    return expect(Paged, await this.#get(path), "/message", "a page of messages");
  }

  async #get(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.#base}${path}`, {
        headers: { "X-Gotify-Key": this.opts.token },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new Error(`Gotify at ${this.#base} did not answer: ${netWords(err)}`, { cause: err });
    }
    const text = await res.text();
    if (!res.ok) {
      // Gotify's error body: {error, errorCode, errorDescription}.
      let why = text.slice(0, 200);
      try {
        const body = JSON.parse(text);
        if (typeof body.errorDescription === "string") why = body.errorDescription;
      } catch { /* not JSON: the text is the reason */ }
      throw new Error(`Gotify refused ${path.split("?")[0]} (${res.status}): ${why}`);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`Gotify answered ${path.split("?")[0]} with something that is not JSON`);
    }
  }

  #setConnected(on: boolean): void {
    if (this.connected === on) return;
    this.connected = on;
    this.opts.onState();
  }
}

/**
 * Gotify's answer in the shape forge reads, or forge's sentence naming the path and what it
 * should have been (a schema library's issue list is no sentence for a person).
 */
function expect<T>(schema: z.ZodType<T>, body: unknown, path: string, what: string): T {
  const read = schema.safeParse(body);
  if (read.success) return read.data;
  throw new Error(`Gotify answered ${path} with something that is not ${what}`);
}
