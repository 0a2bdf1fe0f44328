import type {
  ActivateState,
  CatalogueCheck,
  DictateModelsSnapshot,
  DictateRole,
  InstallState,
  ReadAloudRead,
  WireTime,
} from "../../../protocol/mod.ts";
import type { SpeakingFields } from "../../../server/subsystem.ts";
import type { EngineModel } from "../engines/engine.ts";
import { type Preflight, type RoleModel, wireState } from "../preflight.ts";
import {
  BUILT_IN_ROWS,
  type CatalogueRow,
  POCKETSPHINX_ROW,
  readFeed,
  SILERO_V5_ROW,
} from "./catalogue.ts";
import type { ModelStore } from "./store.ts";
import { type BenchResult, measured, proposeUpdates, rowAxes } from "./updates.ts";

type Check = CatalogueCheck;
type Install = InstallState;
type Activate = ActivateState;

/** The bench's part of the page (bench.ts), read when the snapshot is built. */
export interface BenchView {
  bench: DictateModelsSnapshot["bench"];
  results(): BenchResult[];
  readAloud: ReadAloudRead;
}

/** spec Time: serde's SystemTime shape, the original's (catalogue shorthand). */
export function wireTime(ms: number): WireTime {
  return { secs_since_epoch: Math.floor(ms / 1000), nanos_since_epoch: (ms % 1000) * 1e6 };
}

/**
 * The models page: the rows, the catalogue check, installs, the role swaps and what the local
 * bench proposes. Every change is announced as `dictate_models_changed` carrying the re-read
 * view. spec: dictate_models (the subject table and the candidate rule beneath it).
 */
export class ModelsPage {
  rows: readonly CatalogueRow[] = BUILT_IN_ROWS;
  check: Check = { state: "never" };
  install: Install = { state: "idle" };
  activate: Activate = { state: "idle" };
  bench: BenchView | null = null;

  constructor(
    private readonly store: ModelStore,
    private readonly preflight: Preflight,
    private readonly opts: {
      enabled: () => boolean;
      catalogue: () => string | null;
      importDir: () => string | null;
      changed: (snapshot: DictateModelsSnapshot) => void;
      /** The speaking role's fields, null while it is off. */
      speaking?: () => SpeakingFields | null;
    },
  ) {}

  /** The model the dictation role should run at boot: the installed pick, else the compiled pin. */
  static bootModel(store: ModelStore): { model: EngineModel; from: RoleModel["from"] } {
    const pick = store.pick();
    if (pick && store.record(pick.file)) {
      return { model: { engine: "whisper", path: store.path(pick.file) }, from: "installed_pick" };
    }
    return {
      model: { engine: "pocketsphinx", path: POCKETSPHINX_ROW.path! },
      from: "compiled_pin",
    };
  }

  announce(): void {
    this.opts.changed(this.snapshot());
  }

  /** spec dictate_catalogue_check: re-reads the feed; an unreachable one keeps the rows. */
  async runCheck(): Promise<void> {
    if (this.check.state === "checking") return;
    this.check = { state: "checking" };
    this.announce();
    const source = this.opts.catalogue();
    try {
      const feed = source
        ? await readFeed(source)
        : { release: "built-in", rows: [...BUILT_IN_ROWS], skipped: 0 };
      this.rows = feed.rows;
      this.check = {
        state: "fresh",
        at: wireTime(Date.now()),
        release: feed.release,
        skipped: feed.skipped,
      };
    } catch (err) {
      this.check = { state: "unreachable", error: (err as Error).message };
    }
    this.announce();
  }

  /** spec dictate_install: copies a local-file row in after its digest is checked. */
  async runInstall(variant: string): Promise<void> {
    const row = this.rows.find((r) => r.variant === variant);
    if (!row) throw new Error(`no catalogue row is named ${variant}`);
    if (this.install.state === "downloading") {
      throw new Error(`${this.install.file} is still being installed`);
    }
    this.install = { state: "downloading", file: row.file, got: 0, total: row.size_bytes };
    this.announce();
    try {
      await this.store.install(row, this.opts.importDir(), (got, total) => {
        this.install = { state: "downloading", file: row.file, got, total };
        this.announce();
      });
      this.install = { state: "idle" };
    } catch (err) {
      this.install = { state: "failed", file: row.file, reason: (err as Error).message };
    }
    this.announce();
  }

  /** spec dictate_activate: swaps the role's model; a model that fails to load is reverted. */
  runActivate(role: DictateRole, file: string): Promise<void> {
    return this.planActivate(role, file)();
  }

  /**
   * Checks an activation now (throws the refusal in words: not installed, already running) and
   * returns the swap to run, whose progress and outcome ride `activate` on the page.
   */
  planActivate(role: DictateRole, file: string): () => Promise<void> {
    if (role === "vad") {
      throw new Error(`the vad role has one model here (${SILERO_V5_ROW.file}), and it runs`);
    }
    const active = this.preflight.dictation.file;
    const target = file === POCKETSPHINX_ROW.file ? POCKETSPHINX_ROW.path! : null;
    const record = this.store.record(file);
    if (!target && !record) throw new Error(`${file} is not installed: dictate_install it first`);
    const path = target ?? this.store.path(file);
    if (path === active) throw new Error(`${file} already runs the dictation role`);
    if (this.activate.state === "activating") throw new Error("another activation is running");
    return () => this.#swap(role, file, target, record?.facts.runtime ?? "pocketsphinx", path);
  }

  async #swap(
    role: DictateRole,
    file: string,
    target: string | null,
    runtime: string,
    path: string,
  ): Promise<void> {
    const previous = this.preflight.activeModel;
    const previousFrom = this.preflight.dictation.from;
    this.activate = { state: "activating", role };
    this.announce();
    const model: EngineModel = { engine: runtime as EngineModel["engine"], path };
    await this.preflight.swap(model, target ? "compiled_pin" : "installed_pick");
    if (this.preflight.dictation.state === "failed") {
      const reason = this.preflight.dictation.failure ?? "the model did not load";
      await this.preflight.swap(previous, previousFrom);
      this.activate = { state: "failed", role, reason: `${file}: ${reason}` };
    } else {
      await this.store.setPick(target ? null : file);
      this.activate = { state: "idle" };
    }
    this.announce();
  }

  /** spec dictate_deactivate: the role returns to its compiled pin. */
  planDeactivate(role: DictateRole): () => Promise<void> {
    if (role === "vad" || this.preflight.dictation.from === "compiled_pin") {
      throw new Error(`the ${role} role already runs its compiled pin`);
    }
    return this.planActivate("dictation", POCKETSPHINX_ROW.file);
  }

  async runUninstall(file: string): Promise<void> {
    await this.store.uninstall(file);
    this.announce();
  }

  /** The subject's whole read. spec: dictate_models (the field table). */
  snapshot(): DictateModelsSnapshot {
    const inUse = [this.#inUse(this.preflight.dictation), this.#inUse(this.preflight.vad)];
    const results = this.bench?.results() ?? [];
    const dictationFile = inUse[0].file;
    const speaking = this.opts.speaking?.() ?? null;
    return {
      enabled: this.opts.enabled(),
      models_dir: this.store.dir,
      // The speaking role is the voice subsystem's ([tts]): it fills these through the Host.
      speaking: speaking?.speaking ?? null,
      // spec: in_use carries the speaking row when [tts] runs one.
      in_use: speaking ? [...inUse, speaking.in_use] : inUse,
      check: this.check,
      updates: [proposeUpdates(dictationFile, this.rows, results)],
      rows: this.rows.map((r) => this.#row(r, results, dictationFile)),
      install: this.install,
      activate: this.activate,
      installed: this.store.installed().map((r) => ({ ...r, at: wireTime(r.at) })),
      bench: this.bench?.bench ?? null,
      results: results.map((r) => ({ ...r, at: wireTime(r.at) })),
      read_aloud: this.bench?.readAloud ?? null,
      speaking_bench: speaking?.speaking_bench ?? null,
      speaking_results: speaking?.speaking_results ?? [],
    };
  }

  #inUse(m: RoleModel): DictateModelsSnapshot["in_use"][number] {
    const file = m.file.split("/").pop()!;
    const row = m.role === "vad" ? SILERO_V5_ROW : this.rows.find((r) => r.file === file) ??
      (m.file === POCKETSPHINX_ROW.path ? POCKETSPHINX_ROW : undefined);
    const record = this.store.record(file);
    return {
      role: m.role,
      file: row?.file ?? file,
      size: record?.size ?? row?.size_bytes ?? null,
      sha256: record?.sha256 ??
        (row?.digest.algorithm === "sha256" ? row.digest.value : null),
      state: wireState(m),
      facts: row
        ? { license: row.license, params: row.params, quant: row.quant, runtime: row.engine }
        : null,
      catalogue: row ? this.#row(row, this.bench?.results() ?? [], null) : null,
      from: { from: m.from },
      at: m.at === null ? null : wireTime(m.at),
    };
  }

  /**
   * One feed row. `speed` and `wer` are the feed's own numbers where it carries them, else the
   * local read-aloud bench's (its newest run of the row's file, on the in-use model's tier and
   * corpus when that model has a run), each naming its source - the numbers the adoption rule
   * compares on. `speed` keeps the original's keys (updates.ts rowAxes).
   */
  #row(
    r: CatalogueRow,
    results: readonly BenchResult[],
    inUse: string | null,
  ): DictateModelsSnapshot["rows"][number] {
    const installed = r.source === "package" ? true : this.store.record(r.file) !== undefined;
    const basis = inUse === null
      ? null
      : measured(this.rows.find((x) => x.file === inUse), inUse, results);
    const { speed, wer } = rowAxes(
      r,
      measured(r, r.file, results, basis) ?? measured(r, r.file, results),
    );
    return {
      variant: r.variant,
      display_name: r.display_name,
      family: r.family,
      kind: r.kind,
      engine: r.engine,
      source: r.source,
      package: r.package,
      file: r.file,
      size_bytes: r.size_bytes,
      digest: r.digest,
      license: r.license,
      params: r.params,
      languages: r.languages,
      streaming: r.streaming,
      download: { quant: r.quant, size_bytes: r.size_bytes },
      speed,
      wer,
      url: r.url,
      download_count: null,
      installed,
    };
  }
}
