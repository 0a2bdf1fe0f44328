import type { Command } from "../../protocol/mod.ts";
import { isEngineError, type Peer, Refusal } from "../../server/subsystem.ts";
import type { Bench } from "./bench.ts";
import type { EngineModel } from "./engines/engine.ts";
import { POCKETSPHINX_ROW } from "./models/catalogue.ts";
import type { ModelsPage } from "./models/page.ts";
import type { ModelStore } from "./models/store.ts";
import type { ReadAloudSet } from "./read_aloud.ts";

type Cmd<N extends Command["name"]> = Extract<Command, { name: N }>;

export interface PageDeps {
  page: ModelsPage;
  store: ModelStore;
  bench: Bench;
  set: ReadAloudSet;
  /** Whether the connection is streaming a take (it cannot record the passage meanwhile). */
  streaming(conn: number): boolean;
  /** Registers the connection's close hook (a recording is cancelled when it goes). */
  watch(peer: Peer): void;
  /** Logs a background command's failure; the page's next read carries its state. */
  failed(what: string, err: unknown): void;
}

/**
 * The models page's commands. A refusal known before anything starts is an error frame in the
 * command's words; work that takes time (a check, a copy, a swap, a bench run) runs in the
 * background and its progress and outcome ride `dictate_models_changed`. spec: dictate_models.
 */
export function pageCommands(d: PageDeps) {
  const { page, bench, set } = d;
  const background = (what: string, run: () => Promise<void>) => {
    run().catch((err) => {
      d.failed(what, err);
      page.announce();
    });
  };
  /** A refusal in forge's words: an engine's message is logged and named by what failed. */
  const refusal = (what: string, err: unknown) => {
    if (!isEngineError(err)) return new Refusal(what, `${what}: ${(err as Error).message}`);
    d.failed(what, err);
    return new Refusal(what, `${what}: it failed inside forge; the log has the cause`);
  };
  const inWords = <T>(what: string, plan: () => T): T => {
    try {
      return plan();
    } catch (err) {
      throw refusal(what, err);
    }
  };
  const inWordsAsync = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      throw refusal(what, err);
    }
    page.announce();
  };
  /** The model a bench target names: the compiled pin or an installed local file. */
  const benchModel = (file: string): EngineModel => {
    if (file === POCKETSPHINX_ROW.file) {
      return { engine: "pocketsphinx", path: POCKETSPHINX_ROW.path! };
    }
    const record = d.store.record(file);
    if (!record) throw new Error(`${file} is not installed`);
    return { engine: record.facts.runtime as EngineModel["engine"], path: d.store.path(file) };
  };

  return {
    dictate_catalogue_check: () => background("check", () => page.runCheck()),
    dictate_install: (c: Cmd<"dictate_install">) => {
      inWords("dictate_install", () => {
        if (!page.rows.some((r) => r.variant === c.fields.variant)) {
          throw new Error(`no catalogue row is named ${c.fields.variant}`);
        }
      });
      background("install", () => page.runInstall(c.fields.variant));
    },
    dictate_activate: (c: Cmd<"dictate_activate">) =>
      background(
        "activate",
        inWords("dictate_activate", () => page.planActivate(c.fields.role, c.fields.file)),
      ),
    dictate_deactivate: (c: Cmd<"dictate_deactivate">) =>
      background(
        "deactivate",
        inWords("dictate_deactivate", () => page.planDeactivate(c.fields.role)),
      ),
    dictate_uninstall: (c: Cmd<"dictate_uninstall">) =>
      inWordsAsync("dictate_uninstall", () => page.runUninstall(c.fields.file)),
    dictate_bench: (c: Cmd<"dictate_bench">) => {
      const run = inWords("dictate_bench", () => {
        if (c.fields.target.role !== "dictation") {
          throw new Error("the bench scores dictation models; the vad role has no words to score");
        }
        return bench.plan(c.fields.target, c.fields.tier, benchModel(c.fields.target.file));
      });
      background("bench", run);
    },
    dictate_bench_stop: () => inWords("dictate_bench_stop", () => bench.stop()),
    dictate_bench_delete: (c: Cmd<"dictate_bench_delete">) =>
      inWordsAsync(
        "dictate_bench_delete",
        () => bench.remove(c.fields.target, c.fields.tier, c.fields.corpus),
      ),
    dictate_read_aloud_start: (_c: Cmd<"dictate_read_aloud_start">, peer: Peer) => {
      inWords("dictate_read_aloud_start", () => {
        if (d.streaming(peer.id)) throw new Error("this connection is streaming a take");
        set.start(peer.id);
      });
      d.watch(peer);
      page.announce();
    },
    dictate_read_aloud_stop: (c: Cmd<"dictate_read_aloud_stop">, peer: Peer) =>
      inWordsAsync("dictate_read_aloud_stop", () => set.stop(peer.id, c.fields.keep)),
    dictate_read_aloud_delete: (c: Cmd<"dictate_read_aloud_delete">) =>
      inWordsAsync("dictate_read_aloud_delete", () => set.remove(c.fields.id)),
  };
}
