import type { ServerMessage } from "../../protocol/mod.ts";

/** What a tab's viewer set needs of one connection. */
export interface ViewerSink {
  /** The connection's own id: a re-attach by the same connection keeps its viewer. */
  conn: number;
  send(message: ServerMessage): void;
  sendBinary(bytes: Uint8Array): void;
  buffered(): number;
}

interface Viewer {
  id: number;
  sink: ViewerSink;
  since: number;
  /** The size this viewer's surface last asked for. spec: browser_resize. */
  size: { width: number; height: number; scale: number } | null;
  /** The newest frame this viewer could not take yet; a newer one replaces it. */
  pending: Uint8Array | null;
}

/** Bytes queued to a connection past which a frame waits as "the newest" rather than queueing. */
const BEHIND_BYTES = 512 * 1024;

let nextViewerId = 1;

/**
 * The viewers of one tab and its controller role (spec: browser_view, browser_control,
 * browser_resize): no default controller, one holder at a time, a take always lands; the layout
 * belongs to the controller, else the longest-watching viewer; a behind viewer is served the
 * newest frame, never a queue.
 */
export class TabViewers {
  #viewers = new Map<number, Viewer>();
  #controller: number | null = null;
  #flush: ReturnType<typeof setInterval> | null = null;
  /** The last `browser_input` seq the role carried; reset when the role moves. */
  lastSeq = -1;
  #attachSeq = 0;

  constructor(private readonly describe: (viewer: number) => ServerMessage) {}

  get size(): number {
    return this.#viewers.size;
  }

  get controller(): number | null {
    return this.#controller;
  }

  /** Adds a viewer for a connection (or returns the one it has here) and tells everyone. */
  attach(sink: ViewerSink): { viewer: number; again: boolean } {
    for (const v of this.#viewers.values()) {
      if (v.sink.conn === sink.conn) return { viewer: v.id, again: true };
    }
    const id = nextViewerId++;
    this.#viewers.set(id, { id, sink, since: ++this.#attachSeq, size: null, pending: null });
    this.announce();
    return { viewer: id, again: false };
  }

  /** Removes a viewer; returns whether it held the role (so the caller records the release). */
  detach(viewer: number): boolean {
    if (!this.#viewers.delete(viewer)) return false;
    const held = this.#controller === viewer;
    if (held) this.#setController(null);
    this.announce();
    if (this.#viewers.size === 0 && this.#flush !== null) {
      clearInterval(this.#flush);
      this.#flush = null;
    }
    return held;
  }

  has(viewer: number): boolean {
    return this.#viewers.has(viewer);
  }

  /** Takes or releases the role; returns whether a release actually held it. */
  control(viewer: number, take: boolean): { released: boolean } {
    if (take) {
      if (this.#controller !== viewer) this.#setController(viewer);
      this.announce();
      return { released: false };
    }
    if (this.#controller !== viewer) return { released: false };
    this.#setController(null);
    this.announce();
    return { released: true };
  }

  #setController(viewer: number | null): void {
    this.#controller = viewer;
    this.lastSeq = -1;
  }

  /** Records a viewer's surface size; returns the size to apply when this viewer owns the layout. */
  resize(
    viewer: number,
    size: { width: number; height: number; scale: number },
  ): { width: number; height: number; scale: number } | null {
    const v = this.#viewers.get(viewer);
    if (!v) return null;
    v.size = size;
    return this.layoutOwner() === viewer ? size : null;
  }

  /** The controller, else the longest-watching viewer. spec: browser_resize. */
  layoutOwner(): number | null {
    if (this.#controller !== null) return this.#controller;
    let best: Viewer | null = null;
    for (const v of this.#viewers.values()) if (!best || v.since < best.since) best = v;
    return best?.id ?? null;
  }

  /** The owner's recorded size, for re-applying the layout when the owner changes. */
  ownerSize(): { width: number; height: number; scale: number } | null {
    const owner = this.layoutOwner();
    return owner === null ? null : this.#viewers.get(owner)?.size ?? null;
  }

  /** Sends every viewer its own browser_view. */
  announce(): void {
    for (const v of this.#viewers.values()) v.sink.send(this.describe(v.id));
  }

  /** Sends a JSON frame to every viewer (nav state, surface failure). */
  sendAll(message: ServerMessage): void {
    for (const v of this.#viewers.values()) v.sink.send(message);
  }

  /** Sends a JSON frame to the controller alone; false when nobody holds the role. */
  sendController(message: ServerMessage): boolean {
    const v = this.#controller === null ? undefined : this.#viewers.get(this.#controller);
    if (!v) return false;
    v.sink.send(message);
    return true;
  }

  /** Sends binary bytes to the controller alone, dropped when it is behind (page audio). */
  binaryController(bytes: Uint8Array): void {
    const v = this.#controller === null ? undefined : this.#viewers.get(this.#controller);
    if (v && v.sink.buffered() < BEHIND_BYTES) v.sink.sendBinary(bytes);
  }

  /** Relays one encoded frame to every viewer (or only `only`); a behind viewer keeps the newest. */
  frame(bytes: Uint8Array, only?: number): void {
    for (const v of this.#viewers.values()) {
      if (only !== undefined && v.id !== only) continue;
      if (v.pending === null && v.sink.buffered() < BEHIND_BYTES) v.sink.sendBinary(bytes);
      else {
        v.pending = bytes;
        this.#armFlush();
      }
    }
  }

  #armFlush(): void {
    if (this.#flush !== null) return;
    this.#flush = setInterval(() => {
      let waiting = false;
      for (const v of this.#viewers.values()) {
        if (v.pending === null) continue;
        if (v.sink.buffered() < BEHIND_BYTES) {
          v.sink.sendBinary(v.pending);
          v.pending = null;
        } else waiting = true;
      }
      if (!waiting && this.#flush !== null) {
        clearInterval(this.#flush);
        this.#flush = null;
      }
    }, 25);
  }

  /** Drops every viewer (the tab closed or its host died); returns their sinks. */
  clear(): ViewerSink[] {
    const sinks = [...this.#viewers.values()].map((v) => v.sink);
    this.#viewers.clear();
    this.#controller = null;
    if (this.#flush !== null) clearInterval(this.#flush);
    this.#flush = null;
    return sinks;
  }
}
