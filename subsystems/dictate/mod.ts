import {
  type ClientBinary,
  type Command,
  type DictateOverrides,
  dictationSamples,
  type SessionUpdate,
  type Slot,
  type Wire,
} from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import { PS_MODEL_DIR } from "./engines/pocketsphinx_ffi.ts";
import { processModelsDir } from "./paths.ts";
import { SeatPrefs } from "./prefs.ts";
import { Preflight } from "./preflight.ts";
import { TakeBook } from "./takes.ts";
import { sileroModelPath } from "./vad.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

/**
 * Dictation: takes a client captures (kind-0 frames), decoded off the event loop, normalised by
 * the take's axes and handed back to the connection that started them. spec: dictate_stream,
 * dictate_stop, binary kind 0, session > composer > notice, home > dictate.
 */
export async function create(host: Host) {
  const area = () => host.config().areas.dictate ?? {};
  const prefs = await SeatPrefs.open(`${host.stateDir}/dictate`);
  const preflight = new Preflight(
    { engine: "pocketsphinx", path: PS_MODEL_DIR },
    sileroModelPath(),
    () => host.emit({ name: "dictate_availability", fields: null }),
  );
  // The preflight runs in the background: takes accepted meanwhile wait for the model.
  const loading = preflight.start();
  const book = new TakeBook({
    emitTo: (conn, update) => void host.workspace.emit(update, conn),
    engine: () => preflight.engine(),
    vad: () => preflight.loadedVad?.stream() ?? null,
    maxCaptureMinutes: () => Number(area().max_capture_minutes ?? 30),
    normalizer: () => area().normalizer !== false,
    land: (slot, text, surface) => prefs.land(slot, text, surface),
    log: host.log,
  });
  const watched = new Set<number>();
  const watch = (peer: Peer) => {
    if (watched.has(peer.id)) return;
    watched.add(peer.id);
    // spec: a connection that goes away drops its take rather than submitting it.
    peer.onClose(() => {
      watched.delete(peer.id);
      book.drop(peer.id);
    });
  };
  const seatOrRefuse = (what: string, key: Slot) => {
    if (!host.workspace.seat(key)) {
      throw new Refusal(what, `${what}: ${key.org}/${key.project}/${key.label} is not a seat`, key);
    }
  };
  const notBuilt = (what: string) => () => {
    throw new Refusal(what, `${what}: the dictation models page is not built yet`);
  };

  return {
    verbs: {},
    commands: {
      dictate_stream: (c: Cmd<"dictate_stream">, peer: Peer) => {
        seatOrRefuse("dictate_stream", c.fields.key);
        watch(peer);
        book.stream(peer.id, c.fields.key, c.fields.options, c.fields.surface ?? null);
      },
      dictate_stop: (c: Cmd<"dictate_stop">, peer: Peer) => {
        let decoding: Promise<void>;
        try {
          decoding = book.stop(peer.id, c.fields.key, c.fields.submit);
        } catch (err) {
          throw new Refusal(
            "dictate_stop",
            `dictate_stop: ${(err as Error).message}`,
            c.fields.key,
          );
        }
        // The decode runs on while this connection's next messages are handled.
        decoding.catch((error) => host.log.warn("dictate_stop_failed", { error }));
      },
      dictate_start: (c: Cmd<"dictate_start">) => {
        seatOrRefuse("dictate_start", c.fields.key);
        throw new Refusal(
          "dictate_start",
          "dictate_start: recording from this machine is not built yet",
          c.fields.key,
        );
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
      dictate_catalogue_check: notBuilt("dictate_catalogue_check"),
      dictate_install: notBuilt("dictate_install"),
      dictate_activate: notBuilt("dictate_activate"),
      dictate_deactivate: notBuilt("dictate_deactivate"),
      dictate_uninstall: notBuilt("dictate_uninstall"),
      dictate_bench: notBuilt("dictate_bench"),
      dictate_bench_stop: notBuilt("dictate_bench_stop"),
      dictate_bench_delete: notBuilt("dictate_bench_delete"),
      dictate_read_aloud_start: notBuilt("dictate_read_aloud_start"),
      dictate_read_aloud_stop: notBuilt("dictate_read_aloud_stop"),
      dictate_read_aloud_delete: notBuilt("dictate_read_aloud_delete"),
    },
    subjects: {
      dictate_models: notBuilt("dictate_models") as () => Promise<Wire>,
    },
    binary: (frame: ClientBinary, peer: Peer) => {
      if (frame.kind !== 0) return;
      // spec: a frame with no take to hold it is dropped with a debug record and no answer.
      if (!book.frame(peer.id, dictationSamples(frame.samples))) {
        host.log.debug("binary_frame_refused", { conn: peer.id, reason: "no_take", kind: 0 });
      }
    },
    sessionFields: (slot: Slot) => ({
      composer: { notice: prefs.notice(slot) as unknown as Wire },
      state: { dictate_overrides: prefs.overrides(slot) },
    }),
    homeFields: () => ({
      dictate: {
        enabled: true,
        snapshot: {
          models: [preflight.dictation, preflight.vad].map((m) => ({
            role: m.role,
            file: m.file,
            state: m.state === "failed" ? { failed: m.failure } : m.state,
          })),
          failure: preflight.dictation.failure,
        },
        models_dir: processModelsDir(area().models_dir),
        device: prefs.device,
      },
    }),
    onUpdate: (u: SessionUpdate) => {
      // spec: composer > notice is the last landed take nobody SENT: a prompt spends it.
      if (u.name === "prompt_queued" && u.fields?.key) prefs.sent(u.fields.key);
    },
    stop: async () => {
      await loading;
      preflight.close();
    },
  };
}

/** spec: dictate_overrides echoes a seat's overrides after each change (catalogue 2.3 #26). */
function overridesUpdate(key: Slot, overrides: DictateOverrides): SessionUpdate {
  return { name: "dictate_overrides", fields: { key, overrides } };
}
