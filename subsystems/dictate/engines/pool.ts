import type { EngineModel, Transcriber, Transcript, WorkerReply, WorkerRequest } from "./engine.ts";

interface Slot {
  worker: Worker;
  loaded: Promise<number>;
  busy: boolean;
}

/**
 * A `Transcriber` over up to `size` decode Workers, each holding its own decoder. Takes on
 * different seats decode side by side (two cores here); a third waits for a free Worker, never
 * for the event loop. A Worker that dies is replaced on the next take.
 */
export class WorkerPool implements Transcriber {
  readonly #slots: Slot[] = [];
  readonly #waiting: ((s: Slot) => void)[] = [];
  #nextId = 1;
  #closed = false;
  #loadMs = 0;

  constructor(readonly model: EngineModel, private readonly size = 2) {}

  /** Loads the first Worker's model: the preflight. */
  async ready(): Promise<void> {
    if (this.#slots.length === 0) this.#slots.push(this.#spawn());
    this.#loadMs = await this.#slots[0].loaded;
  }

  /** How long the first model load took, for the bench's stages. */
  get loadMs(): number {
    return this.#loadMs;
  }

  async transcribe(pcm: Int16Array): Promise<Transcript> {
    if (this.#closed) throw new Error("the speech engine is shut down");
    const slot = await this.#acquire();
    try {
      const loadMs = await slot.loaded;
      const copy = pcm.slice().buffer; // transferred: the take's own buffer stays readable
      const id = this.#nextId++;
      const reply = await this.#ask(slot, { op: "decode", id, pcm: copy }, [copy], id);
      if (reply.op !== "decoded") throw new Error((reply as { why: string }).why);
      return { text: reply.text, stages: { model_load_ms: loadMs, decode_ms: reply.ms } };
    } finally {
      this.#release(slot);
    }
  }

  close(): void {
    this.#closed = true;
    for (const s of this.#slots.splice(0)) s.worker.terminate();
  }

  #spawn(): Slot {
    const worker = new Worker(new URL("./decode_worker.ts", import.meta.url), { type: "module" });
    const slot: Slot = { worker, busy: false, loaded: Promise.resolve(0) };
    slot.loaded = this.#ask(slot, { op: "load", model: this.model }, [], null).then((r) => {
      if (r.op !== "loaded") throw new Error((r as { why: string }).why);
      return r.ms;
    });
    // The load's failure reaches whoever awaits `loaded`; the pool only lets the slot go.
    slot.loaded.catch(() => this.#drop(slot));
    return slot;
  }

  #drop(slot: Slot): void {
    slot.worker.terminate();
    const i = this.#slots.indexOf(slot);
    if (i >= 0) this.#slots.splice(i, 1);
  }

  #acquire(): Promise<Slot> {
    const free = this.#slots.find((s) => !s.busy);
    const slot = free ?? (this.#slots.length < this.size ? this.#spawn() : null);
    if (slot) {
      if (!free) this.#slots.push(slot);
      slot.busy = true;
      return Promise.resolve(slot);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(slot: Slot): void {
    const next = this.#waiting.shift();
    if (next && this.#slots.includes(slot)) next(slot);
    else if (next) this.#acquire().then(next);
    else slot.busy = false;
  }

  /** One request, one reply; a Worker that dies answers every ask in flight with its error. */
  #ask(
    slot: Slot,
    req: WorkerRequest,
    transfer: Transferable[],
    id: number | null,
  ): Promise<WorkerReply> {
    return new Promise((resolve) => {
      const onMessage = (e: MessageEvent<WorkerReply>) => {
        const r = e.data;
        const mine = id === null
          ? r.op === "loaded" || r.op === "load_failed"
          : "id" in r && r.id === id;
        if (!mine) return;
        cleanup();
        resolve(r);
      };
      const onError = (e: ErrorEvent) => {
        e.preventDefault();
        cleanup();
        this.#drop(slot);
        const why = `the decode worker stopped: ${e.message}`;
        resolve(id === null ? { op: "load_failed", why } : { op: "decode_failed", id, why });
      };
      const cleanup = () => {
        slot.worker.removeEventListener("message", onMessage);
        slot.worker.removeEventListener("error", onError);
      };
      slot.worker.addEventListener("message", onMessage);
      slot.worker.addEventListener("error", onError);
      slot.worker.postMessage(req, transfer);
    });
  }
}
