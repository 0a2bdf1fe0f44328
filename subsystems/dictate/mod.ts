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
import { ModelsPage } from "./models/page.ts";
import { ModelStore } from "./models/store.ts";
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
  const store = await ModelStore.open(processModelsDir(area().models_dir));
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
  });
  /** A models-page command runs in the background; its outcome is the page's next read. */
  const pageCommand = (what: string, run: () => Promise<void>) => {
    run().catch((err) => {
      host.log.info("dictate_models_refused", { what, why: (err as Error).message });
      page.announce();
    });
  };
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
      dictate_catalogue_check: () => pageCommand("check", () => page.runCheck()),
      dictate_install: (c: Cmd<"dictate_install">) => {
        if (!page.rows.some((r) => r.variant === c.fields.variant)) {
          throw new Refusal("dictate_install", `dictate_install: no row is ${c.fields.variant}`);
        }
        pageCommand("install", () => page.runInstall(c.fields.variant));
      },
      dictate_activate: (c: Cmd<"dictate_activate">) =>
        pageCommand(
          "activate",
          inWords("dictate_activate", () => page.planActivate(c.fields.role, c.fields.file)),
        ),
      dictate_deactivate: (c: Cmd<"dictate_deactivate">) =>
        pageCommand(
          "deactivate",
          inWords("dictate_deactivate", () => page.planDeactivate(c.fields.role)),
        ),
      dictate_uninstall: (c: Cmd<"dictate_uninstall">) =>
        refuseInWords("dictate_uninstall", () => page.runUninstall(c.fields.file)),
      dictate_bench: notBuilt("dictate_bench"),
      dictate_bench_stop: notBuilt("dictate_bench_stop"),
      dictate_bench_delete: notBuilt("dictate_bench_delete"),
      dictate_read_aloud_start: notBuilt("dictate_read_aloud_start"),
      dictate_read_aloud_stop: notBuilt("dictate_read_aloud_stop"),
      dictate_read_aloud_delete: notBuilt("dictate_read_aloud_delete"),
    },
    subjects: {
      dictate_models: () => Promise.resolve(page.snapshot()),
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
/**
 * Runs a page command whose refusal is known before it starts (not installed, already in use)
 * as an error frame in words; once started, the outcome rides dictate_models_changed.
 */
async function refuseInWords(what: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    throw new Refusal(what, `${what}: ${(err as Error).message}`);
  }
}

/** Runs a plan's checks now, turning its refusal into one in the command's words. */
function inWords<T>(what: string, plan: () => T): T {
  try {
    return plan();
  } catch (err) {
    throw new Refusal(what, `${what}: ${(err as Error).message}`);
  }
}

function expandHome(dir: unknown): string | null {
  if (typeof dir !== "string" || dir.length === 0) return null;
  const home = Deno.env.get("HOME");
  return home && dir.startsWith("~/") ? `${home}${dir.slice(1)}` : dir;
}

function overridesUpdate(key: Slot, overrides: DictateOverrides): SessionUpdate {
  return { name: "dictate_overrides", fields: { key, overrides } };
}
