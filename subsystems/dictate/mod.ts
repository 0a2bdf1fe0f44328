import {
  type ClientBinary,
  type Command,
  type DictateAxes,
  type DictateOverrides,
  dictationSamples,
  type SessionUpdate,
  type Slot,
} from "../../protocol/mod.ts";
import { type Host, type Peer, Refusal } from "../../server/subsystem.ts";
import { ownWords } from "../../server/subsystem.ts";
import { Bench } from "./bench.ts";
import { MachineCapture } from "./capture.ts";
import { ModelsPage, wireTime } from "./models/page.ts";
import { ModelStore } from "./models/store.ts";
import { pageCommands } from "./page_commands.ts";
import { processModelsDir } from "./paths.ts";
import { SeatPrefs } from "./prefs.ts";
import { Preflight } from "./preflight.ts";
import { ReadAloudSet } from "./read_aloud.ts";
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
  const prefs = await SeatPrefs.open(host.state, `${host.stateDir}/dictate`);
  const store = await ModelStore.open(host.state, processModelsDir(area().models_dir));
  const boot = ModelsPage.bootModel(store);
  const preflight = new Preflight(
    boot.model,
    sileroModelPath(),
    () => host.emit({ name: "dictate_availability", fields: null }),
  );
  if (boot.from === "installed_pick") preflight.dictation.from = "installed_pick";
  const page = new ModelsPage(store, preflight, {
    enabled: () => area().enabled === true,
    catalogue: () => (typeof area().catalogue === "string" ? area().catalogue as string : null),
    importDir: () => expandHome(area().import_dir),
    changed: (models) => host.emit({ name: "dictate_models_changed", fields: { models } }),
    speaking: () => host.speech?.speaking?.fields() ?? null,
  });
  const set = await ReadAloudSet.open(host.state, `${host.stateDir}/dictate/read_aloud`);
  const bench = await Bench.open(
    host.state,
    `${host.stateDir}/dictate/bench.json`,
    set,
    () => page.announce(),
  );
  page.bench = {
    get bench() {
      return bench.view();
    },
    results: () => bench.results(),
    get readAloud() {
      return set.view(wireTime);
    },
  };
  // The preflight runs in the background: takes accepted meanwhile wait for the model.
  const loading = preflight.start();
  // The speaking bench reads its clips back with this role's active engine.
  if (host.speech) {
    host.speech.dictation = {
      // The file the page's in_use row names (the PocketSphinx pin's is its language model).
      file: () => (page.snapshot() as { in_use: { file: string }[] }).in_use[0].file,
      page: () => page.snapshot(),
      transcribe: async (pcm) => {
        await loading;
        const engine = preflight.engine();
        if ("refusal" in engine) throw new Error(engine.refusal);
        return (await engine.transcribe(pcm)).text;
      },
      announce: () => page.announce(),
    };
  }
  const book = new TakeBook({
    emitTo: (conn, update) => void host.workspace.emit(update, conn),
    engine: () => preflight.engine(),
    vad: () => preflight.loadedVad?.stream() ?? null,
    maxCaptureMinutes: () => Number(area().max_capture_minutes ?? 30),
    normalizer: () => area().normalizer !== false,
    land: (slot, text, surface) => prefs.land(slot, text, surface),
    log: host.log,
  });
  const captures = new Map<number, MachineCapture>();
  const defaults = (): DictateAxes => ({
    styling: area().styling as DictateAxes["styling"],
    structure: area().structure as DictateAxes["structure"],
    context: area().context as DictateAxes["context"],
  });
  const watched = new Set<number>();
  const watch = (peer: Peer) => {
    if (watched.has(peer.id)) return;
    watched.add(peer.id);
    // spec: a connection that goes away drops its take rather than submitting it.
    peer.onClose(() => {
      watched.delete(peer.id);
      captures.get(peer.id)?.stop();
      captures.delete(peer.id);
      book.drop(peer.id);
      set.cancel(peer.id);
    });
  };
  const seatOrRefuse = (what: string, key: Slot) => {
    if (!host.workspace.seat(key)) {
      throw new Refusal(what, `${what}: ${key.org}/${key.project}/${key.label} is not a seat`, key);
    }
  };
  return {
    verbs: {},
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
      ...pageCommands({
        page,
        store,
        bench,
        set,
        streaming: (conn) => book.has(conn),
        watch,
        failed: (what, err) =>
          host.log.info("dictate_models_refused", { what, why: (err as Error).message }),
      }),
    },
    // The dictate_models subject is served by the core (server/areas/dictate_models.ts), which
    // reads this role's page: with [dictate] off it still carries the speaking row.
    subjects: {},
    binary: (frame: ClientBinary, peer: Peer) => {
      if (frame.kind !== 0) return;
      // spec: a frame with no take to hold it is dropped with a debug record and no answer.
      const samples = dictationSamples(frame.samples);
      // A connection recording the read-aloud passage feeds the recording, else its take.
      if (!set.frame(peer.id, samples) && !book.frame(peer.id, samples)) {
        host.log.debug("binary_frame_refused", { conn: peer.id, reason: "no_take", kind: 0 });
      }
    },
    sessionFields: (slot: Slot) => ({
      composer: { notice: prefs.notice(slot) },
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

function expandHome(dir: unknown): string | null {
  if (typeof dir !== "string" || dir.length === 0) return null;
  const home = Deno.env.get("HOME");
  return home && dir.startsWith("~/") ? `${home}${dir.slice(1)}` : dir;
}

/** spec: dictate_overrides echoes a seat's overrides after each change (catalogue 2.3 #26). */
function overridesUpdate(key: Slot, overrides: DictateOverrides): SessionUpdate {
  return { name: "dictate_overrides", fields: { key, overrides } };
}
