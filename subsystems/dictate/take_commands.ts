import type {
  Command,
  DictateAxes,
  DictateOverrides,
  SessionUpdate,
  Slot,
} from "../../protocol/mod.ts";
import { type Host, ownWords, type Peer, Refusal } from "../../server/subsystem.ts";
import { notASeat } from "../../server/workspace/workspace.ts";
import { MachineCapture } from "./capture.ts";
import type { SeatPrefs } from "./prefs.ts";
import type { ReadAloudSet } from "./read_aloud.ts";
import type { TakeBook } from "./takes.ts";
import { onEachClose } from "../../server/close_hook.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

export interface TakeDeps {
  host: Host;
  /** The `[dictate]` area in force now. */
  area(): Record<string, unknown>;
  prefs: SeatPrefs;
  book: TakeBook;
  set: ReadAloudSet;
}

/**
 * The take commands: a client's stream and its stop, a take recorded on this machine, and a
 * seat's overrides and device pin. A connection that goes away drops its take (`watch`).
 * spec: dictate_stream, dictate_stop, dictate_start, set_dictate_override.
 */
export function takeCommands({ host, area, prefs, book, set }: TakeDeps) {
  const captures = new Map<number, MachineCapture>();
  const defaults = (): DictateAxes => ({
    styling: area().styling as DictateAxes["styling"],
    structure: area().structure as DictateAxes["structure"],
    context: area().context as DictateAxes["context"],
  });
  // spec: a connection that goes away drops its take rather than submitting it.
  const watch = onEachClose((peer) => {
    captures.get(peer.id)?.stop();
    captures.delete(peer.id);
    book.drop(peer.id);
    set.cancel(peer.id);
  });
  const seatOrRefuse = (what: string, key: Slot) => {
    if (!host.workspace.seat(key)) {
      throw new Refusal(what, `${what}: ${notASeat(key)}`, key);
    }
  };
  return {
    watch,
    commands: {
      dictate_stream: (c: Cmd<"dictate_stream">, peer: Peer) => {
        seatOrRefuse("dictate_stream", c.fields.key);
        if (set.recorder === peer.id) {
          throw new Refusal(
            "dictate_stream",
            "dictate_stream: this connection is recording the read-aloud passage",
            c.fields.key,
          );
        }
        watch(peer);
        book.stream(peer.id, c.fields.key, c.fields.options, c.fields.surface ?? null);
      },
      dictate_stop: (c: Cmd<"dictate_stop">, peer: Peer) => {
        captures.get(peer.id)?.stop();
        captures.delete(peer.id);
        let decoding: Promise<void>;
        try {
          decoding = book.stop(peer.id, c.fields.key, c.fields.submit);
        } catch (err) {
          throw new Refusal(
            "dictate_stop",
            `dictate_stop: ${
              ownWords(err, {
                log: host.log,
                event: "dictate_stop_failed",
                fallback: "the take could not be stopped; the log has the cause",
              })
            }`,
            c.fields.key,
          );
        }
        // The decode runs on while this connection's next messages are handled.
        decoding.catch((error) => host.log.warn("dictate_stop_failed", { error }));
      },
      dictate_start: async (c: Cmd<"dictate_start">, peer: Peer) => {
        const key = c.fields.key;
        seatOrRefuse("dictate_start", key);
        // spec: a server-side take's axes are the session's stored overrides.
        const axes = prefs.axes(key, defaults());
        const refuse = (message: string) => book.refuse(peer.id, key, message);
        if (area().server_capture !== true) {
          return refuse(
            "recording from this machine is off: set [dictate] server_capture = true",
          );
        }
        watch(peer);
        try {
          const device = prefs.device ?? (area().device as string | null) ?? null;
          const capture = await MachineCapture.start(device, (s) => book.frame(peer.id, s));
          if (!book.stream(peer.id, key, axes, null)) return capture.stop();
          captures.set(peer.id, capture);
        } catch (err) {
          const cause = err instanceof Error ? err.cause : undefined;
          if (typeof cause === "string") host.log.info("dictate_capture_refused", { cause });
          refuse(ownWords(err, {
            log: host.log,
            event: "dictate_capture_failed",
            fallback: "this machine's recorder could not be started; the log has the cause",
          }));
        }
      },
      set_dictate_override: async (c: Cmd<"set_dictate_override">) => {
        const overrides = await prefs.override(c.fields.key, c.fields.update);
        host.emit(overridesUpdate(c.fields.key, overrides));
      },
      reset_dictate_overrides: async (c: Cmd<"reset_dictate_overrides">) => {
        host.emit(overridesUpdate(c.fields.key, await prefs.override(c.fields.key, "reset")));
      },
      set_dictate_device: async (c: Cmd<"set_dictate_device">) => {
        await prefs.pickDevice(c.fields.pick);
        host.emit({
          name: "dictate_device_pin",
          fields: { key: c.fields.key, pick: c.fields.pick },
        });
      },
    },
  };
}

/** dictate_overrides echoes a seat's overrides after each change (the original's update). */
function overridesUpdate(key: Slot, overrides: DictateOverrides): SessionUpdate {
  return { name: "dictate_overrides", fields: { key, overrides } };
}
