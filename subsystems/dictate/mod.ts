import {
  type ClientBinary,
  dictationSamples,
  type SessionUpdate,
  type Slot,
} from "../../protocol/mod.ts";
import type { Host, Peer } from "../../server/subsystem.ts";
import { Bench } from "./bench.ts";
import { ModelsPage, wireTime } from "./models/page.ts";
import { ModelStore } from "./models/store.ts";
import { pageCommands } from "./page_commands.ts";
import { takeCommands } from "./take_commands.ts";
import { processModelsDir } from "./paths.ts";
import { SeatPrefs } from "./prefs.ts";
import { Preflight, wireState } from "./preflight.ts";
import { ReadAloudSet } from "./read_aloud.ts";
import { TakeBook } from "./takes.ts";
import { sileroModelPath } from "./vad.ts";
import { expandHome } from "../../server/home_path.ts";

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
    importDir: () => configuredDir(area().import_dir),
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
  const takes = takeCommands({ host, area, prefs, book, set });
  return {
    verbs: {},
    commands: {
      ...takes.commands,
      ...pageCommands({
        page,
        store,
        bench,
        set,
        streaming: (conn) => book.has(conn),
        watch: takes.watch,
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
            state: wireState(m),
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

function configuredDir(dir: unknown): string | null {
  if (typeof dir !== "string" || dir.length === 0) return null;
  return expandHome(dir, Deno.env.get("HOME") ?? null);
}
