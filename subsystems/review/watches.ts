import { type Slot, slotName } from "../../protocol/mod.ts";
import type { Host } from "../../server/subsystem.ts";
import type { SeatWatch } from "./watch.ts";

/**
 * The seats' change watches, each kept only while someone holds the seat's session subject. A
 * watch is a recursive inotify watch over the whole tree and a git scan on every write: one left
 * behind by a viewer who went away keeps scanning for nobody and holds the user's inotify
 * watches (`fs.inotify.max_user_watches` is shared with every other program). Nothing a watch
 * keeps is needed after its last viewer: a subscribe reads the record fresh (spec: subscribe -
 * "answered with a snapshot of the whole subject"), so a later one starts a new watch.
 */
export class SeatWatches {
  readonly #watches = new Map<string, SeatWatch>();
  readonly #stopListening: Array<() => void> = [];

  constructor(
    private readonly host: Host,
    private readonly make: (slot: Slot, cwd: string) => SeatWatch,
  ) {
    // A last holder leaving (an unsubscribe, a closed connection), and a seat leaving the
    // workspace (a worker despawned or closed) each end the watch.
    const stop = host.attendance?.onChange(() => this.prune());
    if (stop) this.#stopListening.push(stop);
    this.#stopListening.push(host.workspace.onSeatRemoved(() => this.prune()));
  }

  /**
   * The watch a read of the seat goes through: the running one, started now when someone holds
   * the seat. A read for nobody (its holder left while the read waited) gets a watch that is
   * never started, so it answers fresh and leaves nothing running.
   */
  forRead(slot: Slot, cwd: string): SeatWatch {
    const name = slotName(slot);
    const running = this.live(slot, cwd);
    if (running) return running;
    this.#end(name, "moved");
    const watch = this.make(slot, cwd);
    if (!this.#held(slot)) {
      watch.stop();
      return watch;
    }
    watch.start();
    this.#watches.set(name, watch);
    this.host.log.debug("review_watch_started", { seat: name, cwd });
    return watch;
  }

  /** The seat's running watch over `cwd`, if one runs. */
  live(slot: Slot, cwd: string): SeatWatch | undefined {
    const watch = this.#watches.get(slotName(slot));
    return watch?.cwd === cwd ? watch : undefined;
  }

  /** Every running watch. */
  all(): IterableIterator<SeatWatch> {
    return this.#watches.values();
  }

  /** Ends each watch whose seat nobody holds any more, or that left the workspace or moved. */
  prune(): void {
    for (const [name, watch] of [...this.#watches]) {
      const seat = this.host.workspace.seat(watch.slot);
      if (!seat) this.#end(name, "seat_gone");
      else if (seat.cwd !== watch.cwd) this.#end(name, "moved");
      else if (!this.#held(watch.slot)) this.#end(name, "unheld");
    }
  }

  /** Ends every watch and stops listening (shutdown). */
  stop(): void {
    for (const stop of this.#stopListening.splice(0)) stop();
    for (const name of [...this.#watches.keys()]) this.#end(name, "shutdown");
  }

  /** A host built without connections (a fake host) has nobody to count: its watches stay. */
  #held(slot: Slot): boolean {
    return this.host.attendance?.held(slot) ?? true;
  }

  #end(name: string, why: string): void {
    const watch = this.#watches.get(name);
    if (!watch) return;
    this.#watches.delete(name);
    watch.stop();
    this.host.log.debug("review_watch_stopped", { seat: name, why });
  }
}
