import { ClientMessage, type ClientMessageOf } from "../../protocol/mod.ts";

/** A viewer attachment as it was asked for, its `reply_to` left off: re-sent as it is. */
export type Attachment =
  | Omit<ClientMessageOf<"terminal_view">, "reply_to">
  | Omit<ClientMessageOf<"browser_view">, "reply_to">
  | Omit<ClientMessageOf<"browser_view_page">, "reply_to">;

/** What a reconnect made of the viewer attachments held at the drop (terminal first). */
export interface Reattachment {
  /** Attached again (with the size last sent, when one was). */
  reattached: Attachment[];
  /** Refused on the new socket (the seat or the tab gone), in forge's words: no longer held. */
  unattached: { attachment: Attachment; why: string }[];
}

/** A connection views at most one terminal and one browser tab (spec: terminal_view; browser_view). */
type Surface = "terminal" | "browser";
type TerminalSize = { cols: number; rows: number };
type BrowserSize = { width: number; height: number; scale: number };

interface Entry {
  attachment: Attachment;
  /** The last size sent for this attachment: laid out again once it is re-attached. */
  size: TerminalSize | BrowserSize | null;
}

/** An attach sent and not yet answered: its `reply_to` (null when none was asked). */
type Pending = Entry & { replyTo: number | null };

const VIEW_KINDS: Record<string, Surface> = {
  terminal_view: "terminal",
  browser_view: "browser",
  browser_view_page: "browser",
};

/**
 * The viewer attachments a connection holds: the terminal it views and the browser tab, each as
 * it was asked for and with the size last sent, read from what goes out and what forge answers.
 * The viewer dies with the socket (spec: browser_view: "A connection that goes is detached with
 * it"), so a reconnect asks for each again after the subscriptions (`restore`) and lays it out at
 * the size it had; a `*_detach` lets it go. spec: terminal_view, terminal_detach, terminal_resize;
 * browser_view, browser_view_page, browser_detach, browser_resize.
 */
export class Attachments {
  #held: Record<Surface, Entry | null> = { terminal: null, browser: null };
  #pending: Record<Surface, Pending | null> = { terminal: null, browser: null };
  #restoring: { asked: Map<number, Entry>; done: (r: Reattachment) => void } & Reattachment | null =
    null;
  /** How the restore under way sends (a landed attachment's size goes after its answer). */
  #send: (m: ClientMessage) => void = () => {};

  /** What is held now, terminal first. */
  get held(): Attachment[] {
    return [this.#held.terminal, this.#held.browser].flatMap((e) => e ? [e.attachment] : []);
  }

  /** Notes a message the caller sent: an attach, a detach, a resize. */
  sent(message: unknown): void {
    const read = ClientMessage.safeParse(message);
    if (!read.success) return;
    const m = read.data;
    const surface = VIEW_KINDS[m.kind];
    if (surface && "seat" in m) {
      const { reply_to, ...attachment } = m as Attachment & { reply_to?: number | null };
      this.#pending[surface] = { attachment, size: null, replyTo: reply_to ?? null };
    } else if (m.kind === "terminal_detach" || m.kind === "browser_detach") {
      const surface = m.kind === "terminal_detach" ? "terminal" : "browser";
      this.#held[surface] = this.#pending[surface] = null;
    } else if (m.kind === "terminal_resize") {
      // forge reads a connection's messages in order: a resize after an attach is the new one's.
      const entry = this.#pending.terminal ?? this.#held.terminal;
      if (entry) entry.size = { cols: m.cols, rows: m.rows };
    } else if (m.kind === "browser_resize") {
      const entry = this.#pending.browser ?? this.#held.browser;
      if (entry) entry.size = { width: m.width, height: m.height, scale: m.scale };
    }
  }

  /** A frame in: whether it was a restore's own reply (the caller asked for none of it). */
  heard(m: Record<string, unknown>): boolean {
    if (m.kind === "reply" && typeof m.reply_to === "number" && this.#restoring) {
      const entry = this.#restoring.asked.get(m.reply_to);
      if (entry) {
        this.#restoring.asked.delete(m.reply_to);
        this.#answered(entry, m.body as { ok?: unknown; why?: unknown; id?: unknown } | null);
        return true;
      }
    }
    for (const surface of ["terminal", "browser"] as const) {
      const p = this.#pending[surface];
      if (!p) continue;
      const kind = p.attachment.kind;
      // The attach landed: its view frame, or its own reply saying ok. A browser_view naming
      // another tab is the old tab's news (a role moved), not this attach's answer.
      const tab = "tab" in p.attachment ? p.attachment.tab : undefined;
      const ok = (m.kind === "terminal_view" && surface === "terminal") ||
        (m.kind === "browser_view" && surface === "browser" && (tab ?? m.tab) === m.tab) ||
        (m.kind === "reply" && m.reply_to === p.replyTo && okOf(m.body));
      const refused = (m.kind === "reply" && m.reply_to === p.replyTo && !okOf(m.body)) ||
        (m.kind === "error" && m.what === kind && p.replyTo === null);
      if (ok) this.#held[surface] = p;
      // spec: browser_view: "a refused attach drops whatever the connection was viewing"; a
      // refused terminal_view leaves the terminal attached before it (forge opens before it moves).
      else if (refused && surface === "browser") this.#held.browser = null;
      if (ok || refused) this.#pending[surface] = null;
    }
    return false;
  }

  /**
   * Asks again for each attachment held (terminal, then browser tab), each with a `reply_to` from
   * `replyTo`; a landed one gets its last size again. `done` hears what each was answered once
   * every one was (at once when none is held). A drop before then abandons it.
   */
  restore(
    send: (m: ClientMessage) => void,
    replyTo: () => number,
    done: (r: Reattachment) => void,
  ): void {
    const asked = new Map<number, Entry>();
    this.#restoring = { asked, done, reattached: [], unattached: [] };
    this.#send = send;
    for (const entry of [this.#held.terminal, this.#held.browser]) {
      if (!entry) continue;
      const n = replyTo();
      asked.set(n, entry);
      send({ ...entry.attachment, reply_to: n } as ClientMessage);
    }
    if (asked.size === 0) this.#finish();
  }

  /**
   * The socket dropped: the viewers died with it. An attach sent and not yet answered is held,
   * since the caller asked for it (the restore says whether forge takes it); a restore under way
   * is over, and the next one asks for every one again.
   */
  dropped(): void {
    for (const surface of ["terminal", "browser"] as const) {
      const p = this.#pending[surface];
      if (p) this.#held[surface] = { attachment: p.attachment, size: p.size };
      this.#pending[surface] = null;
    }
    this.#restoring = null;
  }

  #answered(entry: Entry, body: { ok?: unknown; why?: unknown; id?: unknown } | null): void {
    const r = this.#restoring!;
    const a = entry.attachment;
    if (body?.ok === true) {
      r.reattached.push(a);
      const size = entry.size;
      if (size && "cols" in size && a.kind === "terminal_view" && typeof body.id === "number") {
        // The id the restore's reply names: a seat's terminal opened anew on a new run has its own.
        this.#send({ kind: "terminal_resize", seat: a.seat, id: body.id, ...size });
      } else if (size && "width" in size) this.#send({ kind: "browser_resize", ...size });
    } else {
      const surface = VIEW_KINDS[a.kind];
      if (this.#held[surface] === entry) this.#held[surface] = null;
      r.unattached.push({ attachment: a, why: typeof body?.why === "string" ? body.why : "" });
    }
    if (r.asked.size === 0) this.#finish();
  }

  #finish(): void {
    const r = this.#restoring!;
    this.#restoring = null;
    r.done({ reattached: r.reattached, unattached: r.unattached });
  }
}

function okOf(body: unknown): boolean {
  return (body as { ok?: unknown } | null)?.ok === true;
}
